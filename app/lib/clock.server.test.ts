import { afterEach, describe, expect, it, vi } from "vitest";

const env = vi.hoisted(() => ({ TEST_CLOCK: true }));
vi.mock("./env.server", () => ({ getEnv: () => env }));

const { moveReadingOn, readersMovedOn, readingTime, releaseTimeMs, setTestClock } = await import(
  "./clock.server"
);

afterEach(() => {
  env.TEST_CLOCK = true;
  setTestClock(undefined);
});

describe("one reader's reading time (ADR 105)", () => {
  it("is the real time until a test moves it on, and then for that reader alone", () => {
    const before = Date.now();
    expect(readingTime(7).getTime()).toBeGreaterThanOrEqual(before);
    expect(readingTime(7).getTime()).toBeLessThanOrEqual(Date.now());
    moveReadingOn(7, 60_000);
    moveReadingOn(7, 30_000);
    expect(readingTime(7).getTime() - Date.now()).toBeGreaterThanOrEqual(89_000);
    expect(readingTime(8).getTime()).toBeLessThanOrEqual(Date.now());
    // The release time does not move with it.
    expect(releaseTimeMs()).toBeLessThanOrEqual(Date.now());
    expect(readersMovedOn()).toBe(1);
  });

  it("goes back to the real time with the release time", () => {
    moveReadingOn(7, 60_000);
    setTestClock(new Date(Date.now() + 3_600_000));
    expect(readingTime(7).getTime() - Date.now()).toBeGreaterThanOrEqual(59_000);
    setTestClock(undefined);
    expect(readingTime(7).getTime()).toBeLessThanOrEqual(Date.now());
    expect(readersMovedOn()).toBe(0);
  });

  it("is refused without the test clock", () => {
    env.TEST_CLOCK = false;
    expect(() => moveReadingOn(7, 1_000)).toThrowError(/TEST_CLOCK/);
    expect(readingTime(7).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
