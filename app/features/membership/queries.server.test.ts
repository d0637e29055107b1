import { describe, expect, it } from "vitest";
import { effectiveMembership } from "./queries.server";

const none = { tier: "free" as const, until: null };
const june = new Date("2026-06-01T00:00:00Z");
const july = new Date("2026-07-01T00:00:00Z");

describe("effectiveMembership", () => {
  it("is free with nothing", () => {
    expect(effectiveMembership({ totalSpentCents: 1999, grant: none, subscriptions: [] })).toEqual({
      tier: "free",
      source: "none",
      until: null,
      totalSpentCents: 1999,
      days: none,
    });
  });

  it("keeps the membership days' cover when spend gives a higher tier", () => {
    expect(
      effectiveMembership({
        totalSpentCents: 6500,
        grant: { tier: "observer", until: july },
        subscriptions: [],
      }),
    ).toEqual({
      tier: "analyst",
      source: "spend",
      until: null,
      totalSpentCents: 6500,
      days: { tier: "observer", until: july },
    });
  });

  it("takes the highest of spend, grants and subscriptions", () => {
    expect(
      effectiveMembership({
        totalSpentCents: 2000,
        grant: { tier: "analyst", until: june },
        subscriptions: [{ tier: "observer", until: july }],
      }),
    ).toMatchObject({ tier: "analyst", source: "grant", until: june });
    expect(
      effectiveMembership({
        totalSpentCents: 2000,
        grant: { tier: "analyst", until: june },
        subscriptions: [{ tier: "first_human", until: july }],
      }),
    ).toMatchObject({ tier: "first_human", source: "subscription", until: july });
  });

  it("prefers the source that does not end on a tie", () => {
    expect(
      effectiveMembership({
        totalSpentCents: 5000,
        grant: { tier: "analyst", until: june },
        subscriptions: [],
      }),
    ).toMatchObject({ tier: "analyst", source: "spend", until: null });
  });
});
