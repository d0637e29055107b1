import { vi } from "vitest";

/**
 * The clock the app reads (`Date` only: timers and the database drivers keep theirs), stood still and moved
 * on by the test: the reading rule counts no more reading than the server's clock saw pass (ADR 58).
 */
export function holdClock() {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
}

export function releaseClock() {
  vi.useRealTimers();
}

/** Moves the held clock on by `seconds`. */
export function passSeconds(seconds: number) {
  vi.setSystemTime(Date.now() + seconds * 1000);
}
