import { logger } from "~/lib/logger.server";

/**
 * What the database says happened since event `after`: the readers named by the events after it, up to event
 * `last`; with no `after`, or when the events end at or before it, none (`last` is then `after`). With the
 * database epoch (db/epoch.server.ts) and the newest event's id, by which a follower sees that the events
 * were put back by a restore (ADR 61).
 */
export type EventReader = (after: number | undefined) => Promise<{
  epoch: string;
  newest: number;
  last: number;
  /** Readers whose kept sessions may have changed: forgotten. */
  userIds: number[];
  /** Readers whose own records alone changed (ADR 79): their own pages forgotten, their sessions kept. */
  ownRecordIds?: number[];
}>;

type Entry<T> = { value: T; until: number };

/**
 * Signed-in readers' sessions kept in memory for the page cache's viewer check (ADR 49), so a signed-in
 * reader's kept chapter page costs no database query. An entry is trusted until the first of: its own
 * deadline (the session's expiry, its idle timeout, or the next time its last-seen mark is due), an event for
 * its reader (`session_events`, written by database triggers whichever instance made the change, read every
 * 250 ms), or a change made by this instance (`forgetUser`, at once). Until the events have been read once,
 * and whenever they cannot be read, nothing is kept: every lookup goes to the database. When a restore put the
 * events back (the database epoch moved, or the newest event is older than the last one read), everything is
 * forgotten and the events are followed on from the newest: the restored events' ids may be ones already read,
 * and a restore deletes sessions without an event (ADR 61).
 */
export class SessionCache<T extends { id: number }> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Each reader's kept keys, so forgetting a reader costs their entries, not a walk through all. */
  private readonly keysOf = new Map<number, Set<string>>();
  /** The last event read; undefined while the events cannot be trusted (not started, or the read failed). */
  private last: number | undefined;
  /** The database epoch `last` belongs to. */
  private dataEpoch: string | undefined;
  /** Counts the changes seen (a reader forgotten or touched, or everyone): the numbers generations are made of. */
  private epoch = 0;
  /**
   * The epoch each reader last changed at (`generation`), the most recent last; none for a reader not changed
   * since… A lookup of a reader that changed after it started may not keep what it found.
   */
  private readonly forgottenAt = new Map<number, number>();
  /** …the epoch everything was last forgotten at. */
  private allForgottenAt = 0;
  /** Moves when a reader's session or shared records change (`anyReaderGeneration`); not when one is touched. */
  private changes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Loads in flight, each with the epoch it started at (a caller joining one checks the reader's since). */
  private readonly loading = new Map<string, { promise: Promise<T | undefined>; epoch: number }>();

  constructor(
    private readonly readEvents: EventReader,
    private readonly maxEntries = 10_000,
  ) {}

  /** The kept value for `key` while it is trusted, without asking anyone (the page cache's hit path). */
  peek(key: string, now = Date.now()): T | undefined {
    const kept = this.entries.get(key);
    return kept && kept.until > now ? kept.value : undefined;
  }

  /** The kept value for `key`, or the loader's (kept when the events are being followed). */
  async get(
    key: string,
    load: () => Promise<Entry<T> | undefined>,
    now = Date.now(),
  ): Promise<T | undefined> {
    const trusted = this.peek(key, now);
    if (trusted) return trusted;
    // A request's write and its handler both ask for the writer's session: one load answers both, unless
    // the reader changed after it started.
    const pending = this.loading.get(key);
    if (pending) {
      const value = await pending.promise;
      if (!value || (this.generation(value.id) ?? Number.POSITIVE_INFINITY) <= pending.epoch) return value;
    }
    const promise = this.load(key, load, now);
    const entry = { promise, epoch: this.epoch };
    this.loading.set(key, entry);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    }
  }

  private async load(
    key: string,
    load: () => Promise<Entry<T> | undefined>,
    now: number,
  ): Promise<T | undefined> {
    this.remove(key);
    const started = this.epoch;
    const loaded = await load();
    if (!loaded) return undefined;
    // Kept unless this reader (or everyone) changed while it was being read: other readers' writes, hundreds a
    // second on a release evening, do not make it stale.
    const generation = this.generation(loaded.value.id);
    if (generation !== undefined && generation <= started && loaded.until > now) {
      // Oldest first out: a Map iterates in insertion order.
      if (this.entries.size >= this.maxEntries) this.remove(this.entries.keys().next().value as string);
      this.entries.set(key, loaded);
      const keys = this.keysOf.get(loaded.value.id) ?? new Set();
      keys.add(key);
      this.keysOf.set(loaded.value.id, keys);
    }
    return loaded.value;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.keysOf.get(entry.value.id);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOf.delete(entry.value.id);
  }

  /**
   * Where a reader's records stand as far as this instance knows: it moves whenever the reader is forgotten
   * (an event for them, a change made here) or everything is, so what is kept under it (the reader's own
   * pages, ADR 53) is never used after a change. Undefined while the events are not followed: keep nothing.
   */
  generation(userId: number): number | undefined {
    if (this.last === undefined) return undefined;
    return Math.max(this.forgottenAt.get(userId) ?? 0, this.allForgottenAt);
  }

  /**
   * Moves with every reader's change this instance sees (an event, or its own), but a reader touched
   * (`touchUser`: only their own records moved): what is kept until any reader's session or shared records
   * change is current while it stands. Undefined while the events are not followed.
   */
  anyReaderGeneration(): number | undefined {
    return this.last === undefined ? undefined : this.changes;
  }

  /** Forgets every kept session of a reader (a change this instance made, or an event). */
  forgetUser(userId: number): void {
    this.changes++;
    for (const key of this.keysOf.get(userId) ?? []) this.entries.delete(key);
    this.keysOf.delete(userId);
    this.moveGeneration(userId);
  }

  /**
   * A reader's own records changed but not their session nor anything readers share (reading progress): their
   * generation moves (their own pages are forgotten), their kept sessions stay.
   */
  touchUser(userId: number): void {
    this.moveGeneration(userId);
  }

  private moveGeneration(userId: number): void {
    this.epoch++;
    // Most recent last (a Map iterates in insertion order), so the oldest are the first to go.
    this.forgottenAt.delete(userId);
    this.forgottenAt.set(userId, this.epoch);
    if (this.forgottenAt.size <= this.maxEntries) return;
    // Too many to remember one by one: the older half is remembered as everyone's floor. Their own pages are
    // forgotten (their generation moves up to it); kept sessions stay, which were current when kept.
    for (const [oldest, at] of this.forgottenAt) {
      if (this.forgottenAt.size <= this.maxEntries / 2) break;
      this.forgottenAt.delete(oldest);
      this.allForgottenAt = Math.max(this.allForgottenAt, at);
    }
  }

  private forgetAll(): void {
    this.changes++;
    this.epoch++;
    this.entries.clear();
    this.keysOf.clear();
    this.forgottenAt.clear();
    this.allForgottenAt = this.epoch;
  }

  /**
   * Reads the events since the last one read and forgets their readers; on failure, forgets everything; after
   * a restore (or the first read), forgets everything and goes on from the newest event.
   */
  async poll(): Promise<void> {
    try {
      const read = await this.readEvents(this.last);
      if (this.last === undefined || read.epoch !== this.dataEpoch || read.newest < this.last) {
        this.forgetAll();
        this.dataEpoch = read.epoch;
        this.last = read.newest;
        return;
      }
      const forgotten = new Set(read.userIds);
      for (const userId of forgotten) this.forgetUser(userId);
      for (const userId of new Set(read.ownRecordIds)) if (!forgotten.has(userId)) this.touchUser(userId);
      this.last = read.last;
    } catch (error) {
      if (this.last !== undefined) logger.warn({ err: error }, "session events poll failed");
      this.last = undefined;
      this.forgetAll();
    }
  }

  /** Follows the events every `everyMs` (after reading them once). */
  async start(everyMs = 250): Promise<void> {
    await this.poll();
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void this.poll().finally(() => {
        busy = false;
      });
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
    this.forgetAll();
  }

  get size(): number {
    return this.entries.size;
  }
}
