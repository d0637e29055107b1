import { logger } from "~/lib/logger.server";

/** What the database says happened since event `after` (or, with no `after`, where its events stand now). */
export type EventReader = (after: number | undefined) => Promise<{ last: number; userIds: number[] }>;

type Entry<T> = { value: T; until: number };

/**
 * Signed-in readers' sessions kept in memory for the page cache's viewer check (ADR 49), so a signed-in
 * reader's kept chapter page costs no database query. An entry is trusted until the first of: its own
 * deadline (the session's expiry, its idle timeout, or the next time its last-seen mark is due), an event for
 * its reader (`session_events`, written by database triggers whichever instance made the change, read every
 * 250 ms), or a change made by this instance (`forgetUser`, at once). Until the events have been read once,
 * and whenever they cannot be read, nothing is kept: every lookup goes to the database.
 */
export class SessionCache<T extends { id: number }> {
  private readonly entries = new Map<string, Entry<T>>();
  /** The last event read; undefined while the events cannot be trusted (not started, or the read failed). */
  private last: number | undefined;
  /** Moves whenever readers are forgotten: a lookup that started before may not keep what it found. */
  private epoch = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly readEvents: EventReader,
    private readonly maxEntries = 10_000,
  ) {}

  /** The kept value for `key`, or the loader's (kept when the events are being followed). */
  async get(
    key: string,
    load: () => Promise<Entry<T> | undefined>,
    now = Date.now(),
  ): Promise<T | undefined> {
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.value;
    if (kept) this.entries.delete(key);
    const epoch = this.epoch;
    const loaded = await load();
    if (!loaded) return undefined;
    if (this.last !== undefined && epoch === this.epoch && loaded.until > now) {
      // Oldest first out: a Map iterates in insertion order.
      if (this.entries.size >= this.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, loaded);
    }
    return loaded.value;
  }

  /** Forgets every kept session of a reader (a change this instance made). */
  forgetUser(userId: number): void {
    this.epoch++;
    for (const [key, entry] of this.entries) if (entry.value.id === userId) this.entries.delete(key);
  }

  private forgetAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Reads the events since the last one read and forgets their readers; on failure, forgets everything. */
  async poll(): Promise<void> {
    try {
      const { last, userIds } = await this.readEvents(this.last);
      if (this.last === undefined) this.forgetAll();
      for (const userId of new Set(userIds)) this.forgetUser(userId);
      this.last = last;
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
