import { describe, expect, it } from "vitest";
import { addDays, dayNumber, localDay } from "~/lib/local-time";
import { busySpans } from "./caught-up";
import { computeStreak, MAX_FREEZES, nextMilestone, READING_DAY_SECONDS } from "./streaks";

const TODAY = "2026-11-25";
/** Reading days given as offsets from today (0 = today, 1 = yesterday), each with enough seconds. */
const read = (...offsets: number[]) =>
  offsets.map((offset) => ({ day: addDays(TODAY, -offset), seconds: READING_DAY_SECONDS }));
/** Always something new to read: no day is caught up. */
const busy = [{ from: 0, to: dayNumber(TODAY) }];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("computeStreak", () => {
  it("has no streak without reading days", () => {
    expect(computeStreak({ days: [], today: TODAY, busy })).toMatchObject({
      current: 0,
      longest: 0,
      freezes: 0,
      next: { milestone: 7, progress: 0 },
    });
  });

  it("counts a day only from 120 seconds", () => {
    const days = [
      { day: addDays(TODAY, -1), seconds: READING_DAY_SECONDS - 1 },
      { day: TODAY, seconds: READING_DAY_SECONDS },
    ];
    expect(computeStreak({ days, today: TODAY, busy })).toMatchObject({ current: 1, readingDays: 1 });
  });

  it("counts consecutive days up to today; today not yet read does not break it", () => {
    expect(computeStreak({ days: read(1, 2, 3), today: TODAY, busy }).current).toBe(3);
    expect(computeStreak({ days: read(0, 1, 2, 3), today: TODAY, busy }).current).toBe(4);
  });

  it("breaks on a missed day with something to read and no freeze", () => {
    const streak = computeStreak({ days: read(0, 1, 3, 4, 5), today: TODAY, busy });
    expect(streak).toMatchObject({ current: 2, longest: 3, freezes: 0 });
  });

  it("breaks when yesterday was missed", () => {
    expect(computeStreak({ days: read(2, 3), today: TODAY, busy }).current).toBe(0);
  });

  it("never breaks on a caught-up day, which does not count either", () => {
    // Days 3 and 4 ago: nothing new to read (busy only until 5 days ago, and again from 2 days ago).
    const spans = [
      { from: 0, to: dayNumber(addDays(TODAY, -5)) },
      { from: dayNumber(addDays(TODAY, -2)), to: dayNumber(TODAY) },
    ];
    const streak = computeStreak({ days: read(0, 1, 2, 5, 6), today: TODAY, busy: spans });
    expect(streak).toMatchObject({ current: 5, longest: 5, freezesSpent: 0 });
  });

  it("earns a freeze at 7 days and spends it on a missed day", () => {
    const days = read(...range(2, 8)); // 7 days, then yesterday missed
    expect(computeStreak({ days, today: TODAY, busy })).toMatchObject({
      current: 7,
      freezes: 0,
      freezesSpent: 1,
    });
    // Without the missed day the freeze is held.
    expect(computeStreak({ days: read(...range(1, 7)), today: TODAY, busy })).toMatchObject({
      current: 7,
      freezes: 1,
    });
  });

  it("holds at most two freezes", () => {
    const streak = computeStreak({ days: read(...range(0, 34)), today: TODAY, busy });
    expect(streak).toMatchObject({ current: 35, freezes: MAX_FREEZES });
  });

  it("spends two held freezes on two missed days, and breaks on the third", () => {
    // 14 days (two freezes), then three missed days before today.
    const twoMissed = computeStreak({ days: read(...range(3, 16)), today: TODAY, busy });
    expect(twoMissed).toMatchObject({ current: 14, freezes: 0, freezesSpent: 2 });
    const threeMissed = computeStreak({ days: read(...range(4, 17)), today: TODAY, busy });
    expect(threeMissed).toMatchObject({ current: 0, longest: 14, freezes: 0 });
  });

  it("gives milestones 7, 30, 100, 365 and progress toward the next", () => {
    expect(nextMilestone(3)).toEqual({ milestone: 7, progress: 3 / 7 });
    expect(nextMilestone(7)).toEqual({ milestone: 30, progress: 7 / 30 });
    expect(nextMilestone(99)).toEqual({ milestone: 100, progress: 0.99 });
    expect(nextMilestone(364)).toEqual({ milestone: 365, progress: 364 / 365 });
    expect(nextMilestone(365)).toBeNull();
  });

  it("ignores days after today (a record from a zone ahead)", () => {
    const days = [...read(0, 1), { day: addDays(TODAY, 1), seconds: 500 }];
    expect(computeStreak({ days, today: TODAY, busy }).current).toBe(2);
  });
});

describe("busySpans", () => {
  const chapter = (id: number, release: string, coinsRequired = 0) => ({
    id,
    releaseAt: new Date(release),
    coinsRequired,
  });
  const now = new Date("2026-11-25T12:00:00Z");
  const base = { timeZone: "UTC", todayNumber: dayNumber(TODAY), now, unlocks: [] };

  it("keeps a chapter busy from its release to its completion, else to today", () => {
    const spans = busySpans({
      ...base,
      catalog: { published: [chapter(1, "2026-11-01T10:00:00Z"), chapter(2, "2026-11-10T10:00:00Z")] },
      progress: [{ chapterId: 1, completed: true, completedAt: null, completedLocal: "2026-11-05 23:30:00" }],
    });
    expect(spans).toEqual([
      { from: dayNumber("2026-11-01"), to: dayNumber("2026-11-05") },
      { from: dayNumber("2026-11-10"), to: dayNumber(TODAY) },
    ]);
  });

  it("opens a paid chapter only when unlocked, and skips unreleased ones", () => {
    const spans = busySpans({
      ...base,
      catalog: {
        published: [
          chapter(1, "2026-11-01T10:00:00Z", 2),
          chapter(2, "2026-11-01T10:00:00Z", 2),
          chapter(3, "2026-12-01T10:00:00Z"),
        ],
      },
      unlocks: [{ chapterId: 2, createdAt: new Date("2026-11-20T08:00:00Z") }],
      progress: [],
    });
    expect(spans).toEqual([{ from: dayNumber("2026-11-20"), to: dayNumber(TODAY) }]);
  });

  it("dates a release in the reader's time zone", () => {
    const spans = busySpans({
      ...base,
      timeZone: "Asia/Tokyo",
      catalog: { published: [chapter(1, "2026-11-01T20:00:00Z")] },
      progress: [],
    });
    expect(spans[0]?.from).toBe(dayNumber("2026-11-02"));
  });
});

describe("local days", () => {
  it("follows the zone's offset across a daylight-saving change", () => {
    // New York leaves DST on 2026-11-01 at 02:00 local (06:00 UTC).
    expect(localDay(new Date("2026-11-01T03:30:00Z"), "America/New_York")).toBe("2026-10-31");
    expect(localDay(new Date("2026-11-01T04:30:00Z"), "America/New_York")).toBe("2026-11-01");
    expect(localDay(new Date("2026-11-02T04:30:00Z"), "America/New_York")).toBe("2026-11-01");
    expect(localDay(new Date("2026-11-02T05:30:00Z"), "America/New_York")).toBe("2026-11-02");
  });

  it("counts day numbers without hours, so a 25-hour day is one day", () => {
    expect(dayNumber("2026-11-02") - dayNumber("2026-11-01")).toBe(1);
    expect(addDays("2026-03-08", 1)).toBe("2026-03-09");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
  });
});
