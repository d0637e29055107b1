import { describe, expect, it } from "vitest";
import { BadSignature } from "./provider.server";
import {
  readTestEvent,
  signTestEvent,
  TOLERANCE_SECONDS,
  testBilling,
  testProvider,
  verifyTestSignature,
} from "./test-provider.server";

const secret = "s".repeat(40);
const body = JSON.stringify({ id: "evt_1", type: "checkout.approved", data: { session: "tps_1" } });

describe("test provider signatures", () => {
  it("accepts its own signature over the exact body", () => {
    expect(() => verifyTestSignature(body, signTestEvent(body, secret), secret)).not.toThrow();
  });

  it.each([
    ["another secret", () => signTestEvent(body, "x".repeat(40))],
    ["a changed body", () => signTestEvent(`${body} `, secret)],
    ["no header", () => null],
    ["garbage", () => "v1=abc"],
    ["a non-hex signature", () => `t=${Math.floor(Date.now() / 1000)},v1=not-hex`],
    ["an old timestamp", () => signTestEvent(body, secret, Date.now() - (TOLERANCE_SECONDS + 5) * 1000)],
    ["a future timestamp", () => signTestEvent(body, secret, Date.now() + (TOLERANCE_SECONDS + 5) * 1000)],
  ])("refuses %s", (_, header) => {
    expect(() => verifyTestSignature(body, header(), secret)).toThrowError(BadSignature);
  });

  it("reads approval as paid and decline as failed", () => {
    const data = { session: "tps_1", amountCents: 99, currency: "USD" };
    expect(readTestEvent({ id: "e1", type: "checkout.approved", data }).effect).toMatchObject({
      kind: "paid",
      sessionId: "tps_1",
      amountCents: 99,
    });
    expect(readTestEvent({ id: "e2", type: "checkout.declined", data }).effect).toEqual({
      kind: "failed",
      sessionId: "tps_1",
    });
  });

  const sub = {
    providerSubscriptionId: "tsub_1",
    tierKey: "observer",
    amountCents: 300,
    currency: "USD",
    currentPeriodEnd: new Date("2026-01-31T00:00:00Z"),
    cancelAtPeriodEnd: false,
    status: "active",
  };

  it("renews for the next calendar month with one invoice id per period", () => {
    const now = new Date("2026-01-31T00:01:00Z");
    const renewal = testBilling.renewal(sub, now);
    expect(testBilling.renewal(sub, new Date("2026-02-01T00:00:00Z")).id).toBe(renewal.id);
    expect(readTestEvent(renewal).effect).toMatchObject({
      kind: "invoice-paid",
      subscriptionId: "tsub_1",
      amountCents: 300,
      paidAt: new Date("2026-01-31T00:01:00Z"),
      periodEnd: new Date("2026-02-28T00:00:00Z"),
      reason: "cycle",
    });
    expect(readTestEvent(testBilling.failedRenewal(sub, now)).effect).toMatchObject({
      kind: "invoice-failed",
      periodStart: sub.currentPeriodEnd,
    });
  });

  it("states only what changed, and charges an upgrade's prorated difference", () => {
    const now = new Date("2026-01-16T00:00:00Z");
    expect(readTestEvent(testBilling.state(sub, now, { cancelAtPeriodEnd: true })).effect).toEqual({
      kind: "subscription",
      subscriptionId: "tsub_1",
      status: "",
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: true,
      at: now,
    });
    expect(testBilling.upgradeInvoice(sub, 1500, now)?.data).toMatchObject({
      // $12 more a month, for 15 of the period's 31 days.
      amountCents: 581,
      reason: "update",
    });
    expect(testBilling.upgradeInvoice(sub, 300, now)).toBeUndefined();
  });

  it("hands back signed events for a change, verifiable by its own webhook check", async () => {
    const provider = testProvider();
    const now = new Date();
    const current = { ...sub, currentPeriodEnd: new Date(now.getTime() + 10 * 24 * 3600 * 1000) };
    const deliveries = await provider.changeSubscription(
      current,
      {
        action: "change-tier",
        tierKey: "analyst",
        amountCents: 700,
        currency: "USD",
        description: "x",
        prorate: true,
      },
      now,
    );
    expect(deliveries).toHaveLength(2);
    const events = await Promise.all(deliveries.map((d) => provider.verifyWebhook(d.rawBody, d.headers)));
    expect(events.map((event) => event.effect.kind)).toEqual(["subscription", "invoice-paid"]);
    await expect(
      provider.verifyWebhook(`${deliveries[0]?.rawBody} `, deliveries[0]?.headers ?? new Headers()),
    ).rejects.toThrow();
  });
});
