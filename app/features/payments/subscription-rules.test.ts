import { describe, expect, it } from "vitest";
import { addMonths, later, localStatus, proratedCents, tierChange } from "./subscription-rules";

describe("subscription rules", () => {
  it.each([
    ["2026-01-15T08:30:00.000Z", "2026-02-15T08:30:00.000Z"],
    ["2026-01-31T23:00:00.000Z", "2026-02-28T23:00:00.000Z"],
    ["2028-01-31T00:00:00.000Z", "2028-02-29T00:00:00.000Z"],
    ["2026-12-31T12:00:00.000Z", "2027-01-31T12:00:00.000Z"],
  ])("adds a calendar month to %s", (from, to) => {
    expect(addMonths(new Date(from)).toISOString()).toBe(to);
  });

  it("goes back a month too", () => {
    expect(addMonths(new Date("2026-03-31T00:00:00Z"), -1).toISOString()).toBe("2026-02-28T00:00:00.000Z");
  });

  it("maps the provider's status words", () => {
    expect(
      ["active", "trialing", "past_due", "unpaid", "canceled", "incomplete_expired", "incomplete", ""].map(
        localStatus,
      ),
    ).toEqual(["active", "active", "past_due", "past_due", "canceled", "canceled", null, null]);
  });

  it("orders tiers: up, down, same", () => {
    expect(tierChange("observer", "first_human")).toBe("upgrade");
    expect(tierChange("first_human", "analyst")).toBe("downgrade");
    expect(tierChange("analyst", "analyst")).toBe("same");
  });

  it("prorates an upgrade by the share of the period left, never below 0 or above the difference", () => {
    const start = new Date("2026-01-01T00:00:00Z");
    const end = new Date("2026-01-31T00:00:00Z");
    const mid = new Date("2026-01-16T00:00:00Z");
    expect(proratedCents(300, 1500, { start, end }, mid)).toBe(600);
    expect(proratedCents(300, 1500, { start, end }, start)).toBe(1200);
    expect(proratedCents(300, 1500, { start, end }, new Date("2025-12-01T00:00:00Z"))).toBe(1200);
    expect(proratedCents(300, 1500, { start, end }, end)).toBe(0);
    expect(proratedCents(1500, 300, { start, end }, mid)).toBe(0);
  });

  it("keeps the later date", () => {
    const a = new Date("2026-01-01T00:00:00Z");
    const b = new Date("2026-02-01T00:00:00Z");
    expect(later(a, b)).toBe(b);
    expect(later(b, a)).toBe(b);
    expect(later(a, null)).toBe(a);
  });
});
