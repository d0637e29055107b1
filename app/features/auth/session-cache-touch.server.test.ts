import { describe, expect, it } from "vitest";
import { type EventReader, SessionCache } from "./session-cache.server";

/**
 * The session cache under a release evening's writes (ADR 79): other readers' changes do not stop a lookup from
 * being kept, a reader whose progress moved keeps their sessions, and remembering many readers' changes never
 * empties the cache.
 */
type User = { id: number };

const noEvents: EventReader = async (after) => ({ epoch: "one", newest: 0, last: after ?? 0, userIds: [] });

async function followed(maxEntries?: number) {
  const cache = new SessionCache<User>(noEvents, maxEntries);
  await cache.poll();
  return cache;
}

/** A lookup held until `release` is called, as a session query in flight is. */
function heldLookup(cache: SessionCache<User>, key: string, user: User) {
  let release: () => void = () => {};
  const found = cache.get(
    key,
    () => new Promise((resolve) => (release = () => resolve({ value: user, until: Date.now() + 60_000 }))),
  );
  return { found, release: () => release() };
}

describe("SessionCache on a busy evening", () => {
  it("keeps what a lookup found while other readers changed, not when its own reader did", async () => {
    const cache = await followed();
    const ayla = heldLookup(cache, "a", { id: 1 });
    for (let id = 2; id < 50; id++) cache.forgetUser(id);
    ayla.release();
    await ayla.found;
    expect(cache.peek("a")).toEqual({ id: 1 });

    const bram = heldLookup(cache, "b", { id: 2 });
    cache.touchUser(2);
    bram.release();
    await bram.found;
    expect(cache.peek("b")).toBeUndefined();
  });

  it("keeps a touched reader's sessions and moves their generation alone, not everyone's", async () => {
    const cache = await followed();
    await cache.get("a", async () => ({ value: { id: 1 }, until: Date.now() + 60_000 }));
    const before = { ayla: cache.generation(1), bram: cache.generation(2), any: cache.anyReaderGeneration() };
    cache.touchUser(1);
    expect(cache.peek("a")).toEqual({ id: 1 });
    expect(cache.generation(1)).not.toBe(before.ayla);
    expect(cache.generation(2)).toBe(before.bram);
    expect(cache.anyReaderGeneration()).toBe(before.any);
    // A change of the session itself forgets it, and moves what all readers share.
    cache.forgetUser(1);
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.anyReaderGeneration()).not.toBe(before.any);
  });

  it("remembers more changed readers than it holds by raising everyone's floor, keeping the sessions", async () => {
    const cache = await followed(4);
    await cache.get("a", async () => ({ value: { id: 1 }, until: Date.now() + 60_000 }));
    const ayla = cache.generation(1);
    for (let id = 10; id < 20; id++) cache.touchUser(id);
    expect(cache.peek("a")).toEqual({ id: 1 });
    // Her own pages are forgotten with the floor's move; the newest changes are still told apart.
    expect(cache.generation(1)).not.toBe(ayla);
    const newest = cache.generation(19);
    cache.touchUser(19);
    expect(cache.generation(19)).not.toBe(newest);
    expect(cache.generation(19)).toBeGreaterThan(cache.generation(1) ?? Number.POSITIVE_INFINITY);
  });

  it("forgets a reader's sessions for a session event, and only touches them for an own-records event", async () => {
    let events: { userIds: number[]; ownRecordIds: number[] } = { userIds: [], ownRecordIds: [] };
    let newest = 0;
    const cache = new SessionCache<User>(async (after) => {
      const read = { epoch: "one", newest, last: newest, ...events };
      events = { userIds: [], ownRecordIds: [] };
      return after === undefined ? { ...read, userIds: [], ownRecordIds: [] } : read;
    });
    await cache.poll();
    const keep = (key: string, id: number) =>
      cache.get(key, async () => ({ value: { id }, until: Date.now() + 60_000 }));
    await keep("a", 1);
    await keep("b", 2);
    const generation = cache.generation(1);
    newest = 2;
    events = { userIds: [2], ownRecordIds: [1, 2] };
    await cache.poll();
    expect(cache.peek("a")).toEqual({ id: 1 });
    expect(cache.generation(1)).not.toBe(generation);
    expect(cache.peek("b")).toBeUndefined();
  });
});
