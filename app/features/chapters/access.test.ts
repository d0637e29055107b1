import { describe, expect, it } from "vitest";
import { chapterStatus, readAhead, readAheadNumbers } from "./access";

const now = new Date("2026-11-22T12:00:00Z");
const day = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(now.getTime() + days * day);

describe("chapter access", () => {
  it("is locked before release, then free or paid", () => {
    expect(chapterStatus({ releaseAt: at(1), coinsRequired: 0 }, now)).toBe("locked");
    expect(chapterStatus({ releaseAt: at(-1), coinsRequired: 0 }, now)).toBe("free");
    expect(chapterStatus({ releaseAt: at(-1), coinsRequired: 1 }, now)).toBe("paid");
    // At the release instant the chapter is out.
    expect(chapterStatus({ releaseAt: now, coinsRequired: 1 }, now)).toBe("paid");
  });

  it("lets each tier read its first k unreleased chapters in release order", () => {
    const published = [
      { number: 1, releaseAt: at(-3) },
      { number: 4, releaseAt: at(9) },
      { number: 2, releaseAt: at(2) },
      { number: 3, releaseAt: at(5) },
      { number: 5, releaseAt: at(12) },
    ];
    expect(readAhead).toEqual({ free: 0, observer: 3, analyst: 5, first_human: 10 });
    expect([...readAheadNumbers(published, now, readAhead.free)]).toEqual([]);
    expect([...readAheadNumbers(published, now, readAhead.observer)]).toEqual([2, 3, 4]);
    expect([...readAheadNumbers(published, now, readAhead.analyst)]).toEqual([2, 3, 4, 5]);
    // A day later chapter 2 is out, and the window moves on.
    expect([...readAheadNumbers(published, at(3), 1)]).toEqual([3]);
  });
});
