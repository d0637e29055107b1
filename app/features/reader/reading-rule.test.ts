import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  completionSeconds,
  countReading,
  countsAsCompleted,
  countsAsRead,
  MAX_SECONDS_PER_WRITE,
} from "./reading-rule";

/** Runs a page's writes (claimed reading time, milliseconds after the first write) through the rule. */
function replay(writes: { claimed: number; at: number }[]) {
  let counted = 0;
  let countedAt: number | undefined;
  for (const write of writes) {
    const count = countReading(write.claimed, counted, countedAt, write.at);
    counted += count.seconds;
    countedAt = count.countedAt;
  }
  return counted;
}

describe("the reading rule", () => {
  it("completes a chapter only with the reading its length needs, at least 30 s", () => {
    expect(completionSeconds(2158)).toBe(216);
    expect(completionSeconds(40)).toBe(30);
    expect(countsAsCompleted(true, 30, 2158)).toBe(false);
    expect(countsAsCompleted(true, 216, 2158)).toBe(true);
    expect(countsAsCompleted(false, 10_000, 2158)).toBe(false);
    expect(countsAsRead(2, false)).toBe(false);
    expect(countsAsRead(30, false)).toBe(true);
  });

  it("starts the clock with the first write and counts nothing then", () => {
    expect(countReading(5000, 0, undefined, 1_000)).toEqual({ seconds: 0, countedAt: 1_000 });
  });

  it("never counts more than the server's clock saw pass, nor more than 300 s a write (fuzz)", () => {
    const writes = fc.array(
      fc.record({
        claimed: fc.integer({ min: 0, max: 10_000_000 }),
        gap: fc.integer({ min: 0, max: 900_000 }),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(writes, (sent) => {
        let at = 0;
        let counted = 0;
        let countedAt: number | undefined;
        for (const write of sent) {
          at += write.gap;
          const count = countReading(write.claimed, counted, countedAt, at);
          expect(count.seconds).toBeGreaterThanOrEqual(0);
          expect(count.seconds).toBeLessThanOrEqual(MAX_SECONDS_PER_WRITE);
          expect(count.countedAt).toBeLessThanOrEqual(at);
          counted += count.seconds;
          countedAt = count.countedAt;
        }
        const first = sent[0]?.gap ?? 0;
        expect(counted * 1000).toBeLessThanOrEqual(at - first);
      }),
    );
  });

  it("counts all of an honest page's reading, whatever its send interval and lateness (fuzz)", () => {
    // The page counts a second for each second read and sends every `interval` seconds, each write up to
    // 900 ms late; the last one when the reader leaves.
    const page = fc.record({
      seconds: fc.integer({ min: 1, max: 1200 }),
      interval: fc.integer({ min: 1, max: 60 }),
      lateness: fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 1, maxLength: 50 }),
    });
    fc.assert(
      fc.property(page, ({ seconds, interval, lateness }) => {
        const writes = [{ claimed: 0, at: 0 }];
        for (let second = interval; second < seconds + interval; second += interval) {
          const claimed = Math.min(second, seconds);
          writes.push({ claimed, at: claimed * 1000 + (lateness[writes.length % lateness.length] ?? 0) });
        }
        expect(replay(writes)).toBe(seconds);
      }),
    );
  });
});
