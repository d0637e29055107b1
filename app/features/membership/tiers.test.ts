import { describe, expect, it } from "vitest";
import { tierForMembershipDays, tierForSpend, tierFromGrants } from "./tiers";

const DAY = 24 * 60 * 60 * 1000;
const start = new Date("2026-01-01T00:00:00Z");
const at = (days: number) => new Date(start.getTime() + days * DAY);

describe("tierForSpend", () => {
  it.each([
    [0, "free"],
    [1999, "free"],
    [2000, "observer"],
    [4999, "observer"],
    [5000, "analyst"],
    [9999, "analyst"],
    [10000, "first_human"],
    [250000, "first_human"],
  ])("%i cents is %s", (cents, tier) => {
    expect(tierForSpend(cents)).toBe(tier);
  });
});

describe("tierForMembershipDays", () => {
  it.each([
    [0, "free"],
    [29, "free"],
    [30, "observer"],
    [89, "observer"],
    [90, "analyst"],
    [179, "analyst"],
    [180, "first_human"],
  ])("%i days is %s", (days, tier) => {
    expect(tierForMembershipDays(days)).toBe(tier);
  });
});

describe("tierFromGrants", () => {
  it("is free with no grants", () => {
    expect(tierFromGrants([], start)).toEqual({ tier: "free", until: null });
  });

  it("covers a grant's days from its payment, then expires", () => {
    const grants = [{ days: 30, grantedAt: start }];
    expect(tierFromGrants(grants, at(29.9))).toEqual({ tier: "observer", until: at(30) });
    expect(tierFromGrants(grants, at(30))).toEqual({ tier: "free", until: null });
  });

  it("stacks a grant bought while covered onto the end date", () => {
    const grants = [
      { days: 30, grantedAt: start },
      { days: 30, grantedAt: at(10) },
    ];
    expect(tierFromGrants(grants, at(45))).toEqual({ tier: "observer", until: at(60) });
    expect(tierFromGrants(grants, at(60))).toEqual({ tier: "free", until: null });
  });

  it("starts a grant bought after expiry from its own payment", () => {
    const grants = [
      { days: 30, grantedAt: start },
      { days: 30, grantedAt: at(40) },
    ];
    expect(tierFromGrants(grants, at(35)).tier).toBe("free");
    expect(tierFromGrants(grants, at(41))).toEqual({ tier: "observer", until: at(70) });
  });

  it("shows the highest tier, and a lower one stacks after it", () => {
    const grants = [
      { days: 180, grantedAt: start },
      { days: 60, grantedAt: at(1) },
    ];
    expect(tierFromGrants(grants, at(100))).toEqual({ tier: "first_human", until: at(180) });
    expect(tierFromGrants(grants, at(200))).toEqual({ tier: "observer", until: at(240) });
  });

  it("ignores grants too short for a tier, in any order", () => {
    const grants = [
      { days: 90, grantedAt: at(5) },
      { days: 10, grantedAt: start },
    ];
    expect(tierFromGrants(grants, at(6))).toEqual({ tier: "analyst", until: at(95) });
  });
});
