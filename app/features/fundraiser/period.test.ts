import { describe, expect, it } from "vitest";
import { offsetAt } from "~/lib/local-time";
import { goalPeriod, monthOf, progressOf } from "./period";

const iso = (date: Date | null) => date?.toISOString() ?? null;

describe("the month a monthly goal counts, in the site's time zone", () => {
  it("is the UTC calendar month in UTC", () => {
    const month = monthOf(new Date("2026-11-25T15:00:00Z"), "UTC");
    expect([iso(month.start), iso(month.end)]).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
    ]);
  });

  it("changes month at local midnight, not UTC midnight", () => {
    // 23:30 on 31 January in New York is already February in UTC: still January there.
    const january = monthOf(new Date("2026-02-01T04:30:00Z"), "America/New_York");
    expect(iso(january.start)).toBe("2026-01-01T05:00:00.000Z");
    expect(iso(january.end)).toBe("2026-02-01T05:00:00.000Z");
    // 00:30 on 1 March in Tokyo is still February in UTC: already March there.
    const march = monthOf(new Date("2026-02-28T15:30:00Z"), "Asia/Tokyo");
    expect(iso(march.start)).toBe("2026-02-28T15:00:00.000Z");
    expect(iso(march.end)).toBe("2026-03-31T15:00:00.000Z");
  });

  it("has its exact boundaries: the first instant belongs, the end does not", () => {
    const start = new Date("2026-01-01T05:00:00Z");
    expect(iso(monthOf(start, "America/New_York").start)).toBe(iso(start));
    const justBefore = new Date(start.getTime() - 1);
    expect(iso(monthOf(justBefore, "America/New_York").end)).toBe(iso(start));
  });

  it("spans a daylight-saving change (a month of 743 or 745 hours) and the year end", () => {
    // March 2026 in New York: EST at its start (UTC-5), EDT at its end (UTC-4).
    const march = monthOf(new Date("2026-03-15T12:00:00Z"), "America/New_York");
    expect(iso(march.start)).toBe("2026-03-01T05:00:00.000Z");
    expect(iso(march.end)).toBe("2026-04-01T04:00:00.000Z");
    expect((march.end.getTime() - march.start.getTime()) / 3_600_000).toBe(31 * 24 - 1);
    // October 2026 in Paris: CEST (UTC+2) at its start, CET (UTC+1) at its end.
    const october = monthOf(new Date("2026-10-31T22:59:59Z"), "Europe/Paris");
    expect(iso(october.start)).toBe("2026-09-30T22:00:00.000Z");
    expect(iso(october.end)).toBe("2026-10-31T23:00:00.000Z");
    const december = monthOf(new Date("2026-12-31T23:59:59Z"), "Europe/Paris");
    expect(iso(december.start)).toBe("2026-12-31T23:00:00.000Z");
    expect(iso(december.end)).toBe("2027-01-31T23:00:00.000Z");
  });

  it("reads zone offsets, half hours included", () => {
    expect(offsetAt(Date.parse("2026-06-01T00:00:00Z"), "Asia/Kolkata")).toBe(5.5 * 3_600_000);
    expect(offsetAt(Date.parse("2026-01-15T00:00:00Z"), "Europe/Paris")).toBe(3_600_000);
    expect(offsetAt(Date.parse("2026-07-15T00:00:00Z"), "Europe/Paris")).toBe(2 * 3_600_000);
  });

  it("never counts before a goal starts or after it ends; a campaign counts its whole run", () => {
    const now = new Date("2026-11-25T12:00:00Z");
    const late = { period: "monthly" as const, startsAt: new Date("2026-11-10T00:00:00Z"), endsAt: null };
    expect(iso(goalPeriod(late, now, "UTC").start)).toBe("2026-11-10T00:00:00.000Z");
    const ending = { ...late, endsAt: new Date("2026-11-28T00:00:00Z") };
    expect(iso(goalPeriod(ending, now, "UTC").end)).toBe("2026-11-28T00:00:00.000Z");
    const campaign = {
      period: "campaign" as const,
      startsAt: new Date("2026-01-01T00:00:00Z"),
      endsAt: null,
    };
    expect(goalPeriod(campaign, now, "UTC")).toEqual({ start: campaign.startsAt, end: null });
  });
});

describe("a goal's progress", () => {
  it("is whole percent, the bar capped at 100 while the figure tells the truth", () => {
    expect(progressOf(650_000, 1_000_000)).toEqual({ percent: 65, barPercent: 65 });
    expect(progressOf(999_999, 1_000_000)).toEqual({ percent: 99, barPercent: 99 });
    expect(progressOf(1_000_000, 1_000_000)).toEqual({ percent: 100, barPercent: 100 });
    expect(progressOf(1_234_500, 1_000_000)).toEqual({ percent: 123, barPercent: 100 });
    expect(progressOf(0, 200_000)).toEqual({ percent: 0, barPercent: 0 });
    // Refunds beyond the received amount (never expected) show as nothing, not a negative bar.
    expect(progressOf(-500, 200_000)).toEqual({ percent: 0, barPercent: 0 });
  });
});
