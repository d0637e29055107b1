import { describe, expect, it } from "vitest";
import { countdown, releaseLabel } from "./release-label";

const release = new Date("2026-11-27T18:00:00Z");
const at = (iso: string) => new Date(iso);

describe("an upcoming chapter's release label", () => {
  it("gives the date more than a day ahead", () => {
    expect(releaseLabel(release, at("2026-11-26T17:59:00Z"), "UTC")).toEqual({ kind: "date" });
    expect(releaseLabel(release, at("2026-11-01T00:00:00Z"), "Asia/Tokyo")).toEqual({ kind: "date" });
  });

  it("gives the time, today or tomorrow in the reader's zone, within a day", () => {
    // Four minutes ahead: 18:00 today in London, 03:00 tomorrow in Tokyo (already the 28th there).
    expect(releaseLabel(release, at("2026-11-27T17:56:00Z"), "Europe/London")).toEqual({
      kind: "soon",
      day: "today",
    });
    expect(releaseLabel(release, at("2026-11-27T14:56:00Z"), "Asia/Tokyo")).toEqual({
      kind: "soon",
      day: "tomorrow",
    });
    // Exactly a day ahead: tomorrow at the same time.
    expect(releaseLabel(release, at("2026-11-26T18:00:00Z"), "UTC")).toEqual({
      kind: "soon",
      day: "tomorrow",
    });
  });

  it("says released once the instant has come", () => {
    expect(releaseLabel(release, release, "UTC")).toEqual({ kind: "released" });
    expect(releaseLabel(release, at("2026-11-28T00:00:00Z"), "America/New_York")).toEqual({
      kind: "released",
    });
  });

  it("gives the date when a clock change puts a day's 24 hours on two calendar days ahead", () => {
    // New York springs forward on 8 March 2026: that day has 23 hours.
    const early = new Date("2026-03-09T04:30:00Z"); // 00:30 on 9 March in New York
    expect(releaseLabel(early, at("2026-03-08T04:59:00Z"), "America/New_York")).toEqual({ kind: "date" });
  });
});

describe("the countdown", () => {
  it("counts in the largest unit, never down to zero while the chapter is closed", () => {
    expect(countdown(4 * 60_000)).toEqual({ value: 4, unit: "minute" });
    expect(countdown(3 * 60_000 + 1)).toEqual({ value: 4, unit: "minute" });
    expect(countdown(45_000)).toEqual({ value: 45, unit: "second" });
    expect(countdown(1)).toEqual({ value: 1, unit: "second" });
    expect(countdown(5 * 3_600_000 + 60_000)).toEqual({ value: 5, unit: "hour" });
    expect(countdown(0)).toBeUndefined();
    expect(countdown(-5_000)).toBeUndefined();
  });
});
