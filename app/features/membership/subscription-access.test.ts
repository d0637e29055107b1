import { describe, expect, it } from "vitest";
import {
  grantsTier,
  paidUntil,
  type SubscriptionState,
  subscriptionAccessEnd,
  subscriptionPhase,
} from "./subscription-access";

const DAY = 24 * 60 * 60 * 1000;
const end = new Date("2026-12-25T10:00:00Z");
const at = (days: number) => new Date(end.getTime() + days * DAY);
const sub = (over: Partial<SubscriptionState> = {}): SubscriptionState => ({
  status: "active",
  currentPeriodEnd: end,
  cancelAtPeriodEnd: false,
  graceUntil: null,
  endedAt: null,
  ...over,
});

describe("subscription access", () => {
  it("active: to the period end, then the renewal's grace of 3 days if no event comes", () => {
    expect(subscriptionAccessEnd(sub())).toEqual(at(3));
    expect(subscriptionPhase(sub(), at(-1))).toBe("active");
    expect(subscriptionPhase(sub(), at(1))).toBe("renewing");
    expect(grantsTier(sub(), at(3))).toBe(false);
  });

  it("cancelled at the period end: exactly to the period end", () => {
    const cancelled = sub({ cancelAtPeriodEnd: true });
    expect(grantsTier(cancelled, at(-0.001))).toBe(true);
    expect(grantsTier(cancelled, end)).toBe(false);
    expect(subscriptionPhase(cancelled, at(-1))).toBe("ending");
    expect(subscriptionPhase(cancelled, at(1))).toBe("ended");
  });

  it("past due: to the grace end, then nothing", () => {
    const late = sub({ status: "past_due", graceUntil: at(3) });
    expect(subscriptionPhase(late, at(2.9))).toBe("grace");
    expect(grantsTier(late, at(3.01))).toBe(false);
    expect(subscriptionAccessEnd(sub({ status: "past_due" }))).toEqual(at(3));
  });

  it("canceled: to the earlier of the period end and when it ended; unknown statuses grant nothing", () => {
    expect(subscriptionAccessEnd(sub({ status: "canceled", endedAt: at(-10) }))).toEqual(at(-10));
    expect(subscriptionAccessEnd(sub({ status: "canceled", endedAt: at(5) }))).toEqual(end);
    expect(subscriptionAccessEnd(sub({ status: "canceled" }))).toEqual(end);
    expect(subscriptionAccessEnd(sub({ status: "incomplete" }))).toBeNull();
    expect(subscriptionPhase(sub({ status: "incomplete" }), at(-1))).toBe("ended");
  });

  it("tells the paid period's end while it runs, then the grace's end", () => {
    expect(paidUntil(sub(), at(-5))).toEqual(end);
    expect(paidUntil(sub(), at(1))).toEqual(at(3));
    expect(paidUntil(sub({ status: "past_due", graceUntil: at(3) }), at(1))).toEqual(at(3));
    expect(paidUntil(sub({ status: "canceled", endedAt: at(-10) }), at(-5))).toEqual(at(-10));
  });
});
