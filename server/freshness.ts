import { readSessionEvents, stopFollowingSessionEvents } from "~/features/auth/session.server";
import {
  followContentRevision,
  pollContentRevision,
  stopRevisionPoll,
} from "~/features/site/revision.server";

/** A stream's read: one statement or a few, its failures its own (each forgets what it kept, and logs). */
type Read = () => Promise<void>;

/**
 * One timer following both freshness streams (db/schema/streams.ts says which table moves which): the reader
 * events every tick (250 ms: a session ended elsewhere is not trusted past it, ADR 49) and the content revision
 * every fourth (once a second, ADR 54). Each stream is read in its own statements and skips a tick while its
 * last read is still running, so a slow read of one never holds the other back.
 */
export class FreshnessFollower {
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private readonly busy = new Set<Read>();

  constructor(
    private readonly streams: { sessionEvents: Read; contentRevision: Read },
    private readonly everyMs = 250,
    private readonly revisionEvery = 4,
  ) {}

  /** Starts after reading both once (the first read of each starts it following). */
  async start(first: { sessionEvents: Read; contentRevision: Read } = this.streams): Promise<void> {
    await Promise.all([first.sessionEvents(), first.contentRevision()]);
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  private tick(): void {
    this.ticks++;
    this.run(this.streams.sessionEvents);
    if (this.ticks % this.revisionEvery === 0) this.run(this.streams.contentRevision);
  }

  private run(read: Read): void {
    if (this.busy.has(read)) return;
    this.busy.add(read);
    void read().finally(() => this.busy.delete(read));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

const follower = new FreshnessFollower({
  sessionEvents: readSessionEvents,
  contentRevision: pollContentRevision,
});

/** The server's follower of both streams: the first content read fails the start, as a database that is not there. */
export function followFreshness(): Promise<void> {
  return follower.start({ sessionEvents: readSessionEvents, contentRevision: followContentRevision });
}

export function stopFollowingFreshness(): void {
  follower.stop();
  stopRevisionPoll();
  stopFollowingSessionEvents();
}
