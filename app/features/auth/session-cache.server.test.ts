import { afterEach, describe, expect, it, vi } from "vitest";
import { type EventReader, SessionCache } from "./session-cache.server";

type User = { id: number; name: string };

/**
 * An event log in memory, as `session_events` is in the database; `fail` makes the next reads throw;
 * `restore` puts it back to its first `keep` events (the ids go back), moving the database epoch or not.
 */
function eventLog() {
  let events: { id: number; userId: number }[] = [];
  const state = { fail: false, reads: 0, epoch: "one" };
  const read: EventReader = async (after) => {
    state.reads++;
    if (state.fail) throw new Error("the database went away");
    const newest = events.at(-1)?.id ?? 0;
    if (after === undefined || newest <= after)
      return { epoch: state.epoch, newest, last: after ?? newest, userIds: [] };
    const since = events.filter((event) => event.id > after);
    return { epoch: state.epoch, newest, last: newest, userIds: since.map((event) => event.userId) };
  };
  const note = (userId: number) => events.push({ id: (events.at(-1)?.id ?? 0) + 1, userId });
  const restore = (keep: number, epoch = state.epoch) => {
    events = events.slice(0, keep);
    state.epoch = epoch;
  };
  return { read, state, note, restore };
}

/** A loader that counts its calls (each one a database query in the app). */
function loader(user: User, until = Date.now() + 60_000) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count++;
    return { value: user, until };
  };
  return { calls, load };
}

const ayla: User = { id: 1, name: "ayla" };
const bram: User = { id: 2, name: "bram" };

describe("SessionCache", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps nothing until the events have been read once: every lookup asks the database", async () => {
    const cache = new SessionCache<User>(eventLog().read);
    const { calls, load } = loader(ayla);
    await cache.get("a", load);
    await cache.get("a", load);
    expect(calls.count).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("answers from memory once followed, until the entry's own deadline", async () => {
    const cache = new SessionCache<User>(eventLog().read);
    await cache.poll();
    const now = Date.now();
    const { calls, load } = loader(ayla, now + 1000);
    expect(await cache.get("a", load, now)).toEqual(ayla);
    expect(await cache.get("a", load, now + 999)).toEqual(ayla);
    expect(cache.peek("a", now + 999)).toEqual(ayla);
    expect(calls.count).toBe(1);
    expect(cache.peek("a", now + 1000)).toBeUndefined();
    await cache.get("a", load, now + 1000);
    expect(calls.count).toBe(2);
  });

  it("answers concurrent asks for one session with one load, unless the reader changed after it started", async () => {
    const cache = new SessionCache<User>(eventLog().read);
    await cache.poll();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const slow = async () => {
      calls++;
      await gate;
      return { value: { ...ayla, name: `ayla ${calls}` }, until: Date.now() + 60_000 };
    };
    const first = cache.get("a", slow);
    const second = cache.get("a", slow);
    release();
    expect(await Promise.all([first, second])).toEqual([
      { id: 1, name: "ayla 1" },
      { id: 1, name: "ayla 1" },
    ]);
    expect(calls).toBe(1);

    // A change of the reader while the load is in flight: a caller who joined it asks again.
    cache.forgetUser(ayla.id);
    let releaseAgain = () => {};
    const again = new Promise<void>((resolve) => {
      releaseAgain = resolve;
    });
    const held = async () => {
      calls++;
      if (calls === 2) await again;
      return { value: { ...ayla, name: `ayla ${calls}` }, until: Date.now() + 60_000 };
    };
    const third = cache.get("a", held);
    const fourth = cache.get("a", held);
    cache.forgetUser(ayla.id);
    releaseAgain();
    expect((await third)?.name).toBe("ayla 2");
    expect((await fourth)?.name).toBe("ayla 3");
  });

  it("forgets a reader named by an event, and only that reader", async () => {
    const log = eventLog();
    const cache = new SessionCache<User>(log.read);
    await cache.poll();
    const first = loader(ayla);
    const second = loader(bram);
    await cache.get("a", first.load);
    await cache.get("b", second.load);
    log.note(ayla.id);
    await cache.poll();
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("b")).toEqual(bram);
    await cache.get("a", first.load);
    await cache.get("b", second.load);
    expect(first.calls.count).toBe(2);
    expect(second.calls.count).toBe(1);
  });

  it("does not keep what a lookup found if the reader was forgotten while it was on its way", async () => {
    const cache = new SessionCache<User>(eventLog().read);
    await cache.poll();
    let release: () => void = () => {};
    const slow = cache.get(
      "a",
      () => new Promise((resolve) => (release = () => resolve({ value: ayla, until: Date.now() + 60_000 }))),
    );
    cache.forgetUser(ayla.id);
    release();
    expect(await slow).toEqual(ayla);
    expect(cache.size).toBe(0);
  });

  it("forgets everything and keeps nothing while the events cannot be read, and recovers after", async () => {
    const log = eventLog();
    const cache = new SessionCache<User>(log.read);
    await cache.poll();
    const { calls, load } = loader(ayla);
    await cache.get("a", load);
    log.state.fail = true;
    await cache.poll();
    expect(cache.size).toBe(0);
    await cache.get("a", load);
    await cache.get("a", load);
    expect(calls.count).toBe(3);
    log.state.fail = false;
    await cache.poll();
    await cache.get("a", load);
    await cache.get("a", load);
    expect(calls.count).toBe(4);
  });

  it("holds at most its number of entries, dropping the oldest", async () => {
    const cache = new SessionCache<User>(eventLog().read, 2);
    await cache.poll();
    for (const key of ["a", "b", "c"])
      await cache.get(key, loader({ id: key.charCodeAt(0), name: key }).load);
    expect(cache.size).toBe(2);
    const { calls, load } = loader(ayla);
    await cache.get("a", load);
    expect(calls.count).toBe(1);
  });

  it("reads the events on its timer, and stops keeping anything when stopped", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const log = eventLog();
    const cache = new SessionCache<User>(log.read);
    await cache.start(10);
    const { calls, load } = loader(ayla);
    await cache.get("a", load);
    log.note(ayla.id);
    const reads = log.state.reads;
    // Not before its interval has passed; at it, the event is read and the reader forgotten.
    await vi.advanceTimersByTimeAsync(9);
    expect(log.state.reads).toBe(reads);
    expect(cache.peek("a")).toEqual(ayla);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.state.reads).toBe(reads + 1);
    await cache.get("a", load);
    expect(calls.count).toBe(2);
    cache.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(log.state.reads).toBe(reads + 1);
    await cache.get("a", load);
    await cache.get("a", load);
    expect(calls.count).toBe(4);
  });

  it("reads them every 250 ms by default, so another instance's change is seen within a second", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const log = eventLog();
    const cache = new SessionCache<User>(log.read);
    await cache.start();
    const reads = log.state.reads;
    await vi.advanceTimersByTimeAsync(249);
    expect(log.state.reads).toBe(reads);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.state.reads).toBe(reads + 1);
    await vi.advanceTimersByTimeAsync(750);
    expect(log.state.reads).toBe(reads + 4);
    cache.stop();
  });

  it("does not start a read while the last one is still on its way", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const log = eventLog();
    let asked = 0;
    let held: Promise<void> | undefined;
    const cache = new SessionCache<User>(async (after) => {
      asked++;
      await held;
      return log.read(after);
    });
    await cache.start(10);
    let answer = () => {};
    held = new Promise<void>((resolve) => (answer = resolve));
    await vi.advanceTimersByTimeAsync(50);
    expect(asked).toBe(2);
    held = undefined;
    answer();
    await vi.advanceTimersByTimeAsync(10);
    expect(asked).toBe(3);
    cache.stop();
  });

  it("gives each reader a generation that moves when they, or everyone, are forgotten (ADR 53)", async () => {
    const log = eventLog();
    const cache = new SessionCache<User>(log.read, 3);
    expect(cache.generation(ayla.id)).toBeUndefined();
    await cache.poll();
    const first = { ayla: cache.generation(ayla.id), bram: cache.generation(bram.id) };
    expect(first.ayla).toBeTypeOf("number");
    // An event for Ayla moves hers only.
    log.note(ayla.id);
    await cache.poll();
    expect(cache.generation(ayla.id)).not.toBe(first.ayla);
    expect(cache.generation(bram.id)).toBe(first.bram);
    // A change made here moves it at once, and never back to a value it had.
    const seen = new Set([first.ayla, cache.generation(ayla.id)]);
    cache.forgetUser(ayla.id);
    expect(seen.has(cache.generation(ayla.id))).toBe(false);
    // Events that cannot be read: no generation (nothing may be kept); once read again, every one moved.
    log.state.fail = true;
    await cache.poll();
    expect(cache.generation(bram.id)).toBeUndefined();
    log.state.fail = false;
    await cache.poll();
    expect(cache.generation(bram.id)).not.toBe(first.bram);
    // More readers forgotten than it holds: everyone's moves rather than one being dropped.
    const before = cache.generation(bram.id);
    for (const id of [10, 11, 12, 13]) cache.forgetUser(id);
    expect(cache.generation(bram.id)).not.toBe(before);
  });

  it("forgets everything when a restore moved the database epoch, and follows on from the newest event", async () => {
    const log = eventLog();
    for (const id of [ayla.id, bram.id, bram.id]) log.note(id);
    const cache = new SessionCache<User>(log.read);
    await cache.poll();
    const first = loader(ayla);
    await cache.get("a", first.load);
    const generation = cache.generation(ayla.id);
    // Restored as it was, ids and all: only the epoch says the sessions behind them may be gone.
    log.restore(3, "two");
    await cache.poll();
    expect(cache.size).toBe(0);
    expect(cache.generation(ayla.id)).not.toBe(generation);
    await cache.get("a", first.load);
    expect(first.calls.count).toBe(2);
    // Events after the restore are read as usual.
    log.note(ayla.id);
    await cache.poll();
    expect(cache.peek("a")).toBeUndefined();
  });

  it("forgets everything when the events went back, then reads the ones written after", async () => {
    const log = eventLog();
    for (const id of [bram.id, bram.id, bram.id, bram.id]) log.note(id);
    const cache = new SessionCache<User>(log.read);
    await cache.poll();
    const first = loader(ayla);
    await cache.get("a", first.load);
    // Put back to the first two events with the same epoch (a restore that did not move it).
    log.restore(2);
    await cache.poll();
    expect(cache.size).toBe(0);
    await cache.get("a", first.load);
    expect(cache.peek("a")).toEqual(ayla);
    // Ayla signs out on another instance: event 3, an id this cache had read before the restore.
    log.note(ayla.id);
    await cache.poll();
    expect(cache.peek("a")).toBeUndefined();
  });

  it("forgets a reader's sessions by their index, whatever else it holds", async () => {
    const cache = new SessionCache<User>(eventLog().read);
    await cache.poll();
    await cache.get("a1", loader(ayla).load);
    await cache.get("a2", loader(ayla).load);
    await cache.get("b", loader(bram).load);
    cache.forgetUser(ayla.id);
    expect(cache.size).toBe(1);
    const again = loader(bram);
    await cache.get("b", again.load);
    expect(again.calls.count).toBe(0);
  });
});
