import { getEnv } from "./env.server";

/**
 * The site's release time: what decides whether a chapter is out, what members read ahead, and when a kept
 * page showing a chapter locked expires. It is the real time, unless the server runs with TEST_CLOCK=true
 * and a test moved it (/admin/clock, ADR 39), so a browser test can pass a release minute without waiting.
 * Sessions, payments, streaks and logs always keep the real time, but for `readingTime`.
 */
const state = { offsetMs: 0, readingAheadMs: new Map<number, number>() };

export function releaseTimeMs(): number {
  return Date.now() + state.offsetMs;
}

export function releaseTime(): Date {
  return new Date(releaseTimeMs());
}

export function testClockEnabled(): boolean {
  return getEnv().TEST_CLOCK;
}

/** How far the release time runs ahead of the real time (negative: behind), in ms. */
export function clockOffsetMs(): number {
  return state.offsetMs;
}

/**
 * Sets the release time to `time`, or back to the real time (undefined: every reader's reading time too).
 * Only with TEST_CLOCK=true.
 */
export function setTestClock(time: Date | undefined): void {
  if (!testClockEnabled()) throw new Error("the test clock is off (TEST_CLOCK)");
  state.offsetMs = time === undefined ? 0 : time.getTime() - Date.now();
  if (time === undefined) state.readingAheadMs.clear();
}

/**
 * The time one reader's reading is counted by: the server counts no more reading than its clock saw pass
 * (ADR 58). The real time, unless a test moved it on for that reader (TEST_CLOCK=true, /admin/clock, ADR 105),
 * so a browser test has half a minute of reading counted without waiting half a minute, and no other reader's
 * count moves with it.
 */
export function readingTime(userId: number): Date {
  return new Date(Date.now() + (state.readingAheadMs.get(userId) ?? 0));
}

/** How many readers' reading time a test moved on (readingTime). */
export function readersMovedOn(): number {
  return state.readingAheadMs.size;
}

/** Moves one reader's reading time on by `ms` (readingTime). Only with TEST_CLOCK=true. */
export function moveReadingOn(userId: number, ms: number): void {
  if (!testClockEnabled()) throw new Error("the test clock is off (TEST_CLOCK)");
  state.readingAheadMs.set(userId, (state.readingAheadMs.get(userId) ?? 0) + ms);
}
