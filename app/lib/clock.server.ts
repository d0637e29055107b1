import { getEnv } from "./env.server";

/**
 * The site's release time: what decides whether a chapter is out, what members read ahead, and when a kept
 * page showing a chapter locked expires. It is the real time, unless the server runs with TEST_CLOCK=true
 * and a test moved it (/admin/clock, ADR 39), so a browser test can pass a release minute without waiting.
 * Sessions, payments, streaks and logs always keep the real time.
 */
const state = { offsetMs: 0 };

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

/** Sets the release time to `time` (undefined: back to the real time). Only with TEST_CLOCK=true. */
export function setTestClock(time: Date | undefined): void {
  if (!testClockEnabled()) throw new Error("the test clock is off (TEST_CLOCK)");
  state.offsetMs = time === undefined ? 0 : time.getTime() - Date.now();
}
