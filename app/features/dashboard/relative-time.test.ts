import { describe, expect, it } from "vitest";
import { relativeTime } from "./relative-time";

const NOW = new Date("2026-11-25T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const H = 3_600_000;

describe("relativeTime", () => {
  it.each([
    [0, { kind: "justNow" }],
    [H - 1, { kind: "justNow" }],
    [H, { kind: "hours", count: 1 }],
    [23 * H + 59 * 60_000, { kind: "hours", count: 23 }],
    [24 * H, { kind: "days", count: 1 }],
    [7 * 24 * H - 1, { kind: "days", count: 6 }],
    [7 * 24 * H, { kind: "date" }],
    [-5 * H, { kind: "justNow" }],
  ])("%i ms ago is %o", (ms, expected) => {
    expect(relativeTime(ago(ms), NOW)).toEqual(expected);
  });
});
