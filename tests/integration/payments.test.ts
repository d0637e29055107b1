import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { coinLedger, paymentEvents, payments, subscriptions } from "#db/schema";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { getMembership } from "~/features/membership/queries.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { getOwnPayment, listPurchases } from "~/features/payments/queries.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import {
  signTestEvent,
  TEST_SIGNATURE_HEADER,
  type TestEventBody,
} from "~/features/payments/test-provider.server";
import { receiveWebhook } from "~/features/payments/webhook.server";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance, createReader } from "../support/factories";
import { unique } from "../support/unique";

const DAY = 24 * 60 * 60 * 1000;

describe.each(drivers)("payments on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  const reader = () => createReader({ prefix: "payer" });

  /** A new reader who has started buying a coin pack (the payment is pending). */
  async function readerBuying(packKey: string) {
    const user = await reader();
    const { paymentId, url } = await startCheckout(user, { kind: "coins", packKey }, { ip: unique() });
    return { user, paymentId, url };
  }

  const balanceOf = coinBalance;
  const paymentRow = async (id: number) => {
    const [row] = await handle.db.select().from(payments).where(eq(payments.id, id));
    if (!row) throw new Error(`no payment ${id}`);
    return row;
  };
  const sessionOf = (url: string) => url.replace("/pay/test/", "");
  /** The test provider's approval of the checkout at `url`, for the amount it states (a new event id). */
  const approval = (url: string, amountCents: number, currency = "USD"): TestEventBody => ({
    id: `evt_${unique()}`,
    type: "checkout.approved",
    data: { session: sessionOf(url), amountCents, currency },
  });

  /** A signed test-provider event, posted through the webhook path like any provider's. */
  async function deliver(body: TestEventBody, sign = signTestEvent) {
    const raw = JSON.stringify(body);
    return receiveWebhook("test", raw, new Headers({ [TEST_SIGNATURE_HEADER]: sign(raw) }));
  }

  it("prices a pack from the database and grants nothing before the provider confirms", async () => {
    const { user, paymentId, url } = await readerBuying("coins-5");
    expect(url).toMatch(/^\/pay\/test\/tps_[\w-]{20,}$/);
    const payment = await paymentRow(paymentId);
    expect(payment).toMatchObject({ status: "pending", amountCents: 99, currency: "USD", coins: 5 });
    expect(await balanceOf(user.id)).toBe(3);
    await expect(
      startCheckout(user, { kind: "coins", packKey: "coins-1000" }, { ip: unique() }),
    ).rejects.toMatchObject({ code: "unknown-item", status: 404 });
  });

  it("credits an approved payment once, however often it is answered; a declined one changes nothing", async () => {
    const user = await reader();
    const first = await startCheckout(user, { kind: "coins", packKey: "coins-5" }, { ip: unique() });
    expect(await answerTestCheckout(sessionOf(first.url), "approve")).toEqual({
      redirectTo: `/coins?payment=${first.paymentId}`,
    });
    await answerTestCheckout(sessionOf(first.url), "approve");
    await answerTestCheckout(sessionOf(first.url), "decline");
    expect(await balanceOf(user.id)).toBe(8);
    expect(await ledgerBalance(handle.db, user.id)).toBe(8);
    expect((await paymentRow(first.paymentId)).status).toBe("paid");

    const second = await startCheckout(user, { kind: "coins", packKey: "coins-12" }, { ip: unique() });
    await answerTestCheckout(sessionOf(second.url), "decline");
    await answerTestCheckout(sessionOf(second.url), "approve");
    expect((await paymentRow(second.paymentId)).status).toBe("failed");
    expect(await balanceOf(user.id)).toBe(8);
  });

  it("shows a reader only their own payments", async () => {
    const owner = await reader();
    const other = await reader();
    const { paymentId } = await startCheckout(owner, { kind: "coins", packKey: "coins-5" }, { ip: unique() });
    expect(await getOwnPayment(owner.id, paymentId)).toMatchObject({ id: paymentId, status: "pending" });
    expect(await getOwnPayment(other.id, paymentId)).toBeUndefined();
    expect(await listPurchases(other.id)).toEqual([]);
    expect((await listPurchases(owner.id)).map((purchase) => purchase.id)).toEqual([paymentId]);
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const { user, paymentId, url } = await readerBuying("coins-5");
    const body = approval(url, 99);
    const forged = await deliver(body, (raw) =>
      signTestEvent(raw, "not-the-secret-not-the-secret-not-the-secret"),
    );
    expect(forged).toMatchObject({ status: 400, body: { error: "bad-signature" } });
    const stale = await deliver(body, (raw) => signTestEvent(raw, undefined, Date.now() - 6 * 60 * 1000));
    expect(stale.status).toBe(400);
    const missing = await receiveWebhook("test", JSON.stringify(body), new Headers());
    expect(missing.status).toBe(400);
    expect((await paymentRow(paymentId)).status).toBe("pending");
    expect(await balanceOf(user.id)).toBe(3);
    const events = await handle.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, body.id));
    expect(events).toHaveLength(0);
  });

  it("refuses a confirmation whose amount or currency differs from the stored payment", async () => {
    const { user, paymentId, url } = await readerBuying("coins-65");
    const cheap = await deliver(approval(url, 1));
    const yen = await deliver(approval(url, 899, "JPY"));
    expect([cheap.status, yen.status]).toEqual([400, 400]);
    expect((await paymentRow(paymentId)).status).toBe("pending");
    expect(await balanceOf(user.id)).toBe(3);
  });

  it("reverses a refund: coins taken back as far as the balance allows, spend and tier recomputed", async () => {
    const { user, paymentId, url } = await readerBuying("coins-12");
    await answerTestCheckout(sessionOf(url), "approve");
    expect(await balanceOf(user.id)).toBe(15);
    const payment = await paymentRow(paymentId);
    // A partial refund of $1.00 of $1.99 takes back that share of the 12 coins, rounded up: 7.
    await processEvent("test", {
      id: `evt_refund_half_${unique()}`,
      type: "refund",
      effect: {
        kind: "refunded",
        providerPaymentId: payment.providerPaymentId ?? "",
        refundedCents: 100,
        currency: "USD",
      },
    });
    expect(await balanceOf(user.id)).toBe(8);
    // The reader spends coins; the full refund then takes back only what is left.
    for (const chapter of [4, 5, 6, 7])
      expect(await unlockChapter(user.id, chapter)).toMatchObject({ ok: true });
    expect(await balanceOf(user.id)).toBe(4);
    const full = await processEvent("test", {
      id: `evt_refund_full_${unique()}`,
      type: "refund",
      effect: {
        kind: "refunded",
        providerPaymentId: payment.providerPaymentId ?? "",
        refundedCents: 199,
        currency: "USD",
      },
    });
    expect(full.outcome).toBe("refunded");
    expect(await balanceOf(user.id)).toBe(0);
    expect(await ledgerBalance(handle.db, user.id)).toBe(0);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: "refunded",
      refundedCents: 199,
      coinsReversed: 12,
    });
    expect((await getMembership(user.id)).totalSpentCents).toBe(0);
    const refunds = await handle.db
      .select({ delta: coinLedger.delta })
      .from(coinLedger)
      .where(and(eq(coinLedger.userId, user.id), eq(coinLedger.reason, "refund")));
    expect(refunds.map((row) => row.delta).sort()).toEqual([-4, -7]);
  });

  it("derives the tier from confirmed spend at the boundaries", async () => {
    const user = await reader();
    const pay = async (amountCents: number) => {
      const [row] = await handle.db
        .insert(payments)
        .values({
          userId: user.id,
          kind: "product",
          provider: "test",
          providerSessionId: `tps_spend_${unique()}`,
          amountCents,
          currency: "USD",
          description: "spend",
        })
        .returning();
      if (!row) throw new Error("no row");
      await processEvent("test", {
        id: `evt_spend_${unique()}`,
        type: "checkout.approved",
        effect: { kind: "paid", sessionId: row.providerSessionId ?? "", amountCents, currency: "USD" },
      });
    };
    // A pending payment does not count.
    await handle.db.insert(payments).values({
      userId: user.id,
      kind: "product",
      provider: "test",
      amountCents: 100_000,
      currency: "USD",
      description: "never paid",
    });
    const steps: [number, string][] = [
      [1999, "free"],
      [1, "observer"],
      [2999, "observer"],
      [1, "analyst"],
      [4999, "analyst"],
      [1, "first_human"],
    ];
    for (const [cents, tier] of steps) {
      await pay(cents);
      expect((await getMembership(user.id)).tier).toBe(tier);
    }
    expect(await getMembership(user.id)).toMatchObject({
      source: "spend",
      until: null,
      totalSpentCents: 10000,
    });
  });

  it("grants membership days on payment, stacks them, and a dispute ends the grant", async () => {
    const user = await reader();
    const now = new Date();
    const buy = async (days: number, at: Date) => {
      const [row] = await handle.db
        .insert(payments)
        .values({
          userId: user.id,
          kind: "product",
          provider: "test",
          providerSessionId: `tps_days_${unique()}`,
          amountCents: 100,
          currency: "USD",
          description: `${days} days`,
          membershipDays: days,
        })
        .returning();
      if (!row) throw new Error("no row");
      await processEvent(
        "test",
        {
          id: `evt_days_${unique()}`,
          type: "checkout.approved",
          effect: {
            kind: "paid",
            sessionId: row.providerSessionId ?? "",
            amountCents: 100,
            currency: "USD",
            providerPaymentId: `pi_${unique()}`,
          },
        },
        at,
      );
      return paymentRow(row.id);
    };
    await buy(30, now);
    const second = await buy(90, new Date(now.getTime() + 10 * DAY));
    const at = (days: number) => new Date(now.getTime() + days * DAY);
    expect(await getMembership(user.id, at(20))).toMatchObject({
      tier: "analyst",
      source: "grant",
      until: at(100),
    });
    // Observer cover stacks: the 30 days, then the 90-day grant (which covers observer too) after them.
    expect(await getMembership(user.id, at(110))).toMatchObject({ tier: "observer", until: at(120) });
    expect((await getMembership(user.id, at(121))).tier).toBe("free");

    await processEvent("test", {
      id: `evt_dispute_${unique()}`,
      type: "dispute",
      effect: { kind: "disputed", providerPaymentId: second.providerPaymentId ?? "", currency: "USD" },
    });
    expect((await paymentRow(second.id)).status).toBe("disputed");
    expect(await getMembership(user.id, at(20))).toMatchObject({
      tier: "observer",
      until: at(30),
      totalSpentCents: 100,
    });
    expect((await getMembership(user.id, at(31))).tier).toBe("free");
  });

  it("grants a support tier while its subscription is paid up, and a refund ends it", async () => {
    const user = await reader();
    const { paymentId, url } = await startCheckout(
      user,
      { kind: "subscription", tierKey: "analyst" },
      { ip: unique() },
    );
    const payment = await paymentRow(paymentId);
    expect(payment).toMatchObject({ amountCents: 700, tierKey: "analyst", kind: "subscription" });
    const subscriptionId = `sub_${unique()}`;
    await processEvent("test", {
      id: `evt_sub_${unique()}`,
      type: "checkout.approved",
      effect: {
        kind: "paid",
        sessionId: sessionOf(url),
        amountCents: 700,
        currency: "USD",
        providerPaymentId: `pi_${unique()}`,
        subscriptionId,
      },
    });
    expect(await getMembership(user.id)).toMatchObject({ tier: "analyst", source: "subscription" });
    await processEvent("test", {
      id: `evt_sub_upd_${unique()}`,
      type: "subscription",
      effect: { kind: "subscription", subscriptionId, status: "past_due", currentPeriodEnd: null },
    });
    // Past due: the tier lasts the 3 days' grace after the period end, then ends (ADR 27).
    const [pastDue] = await handle.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, subscriptionId));
    const graceEnd = pastDue?.graceUntil?.getTime() ?? 0;
    expect(graceEnd).toBe((pastDue?.currentPeriodEnd.getTime() ?? 0) + 3 * DAY);
    expect((await getMembership(user.id)).tier).toBe("analyst");
    expect((await getMembership(user.id, new Date(graceEnd + 1000))).tier).toBe("free");
    await processEvent("test", {
      id: `evt_sub_ok_${unique()}`,
      type: "subscription",
      effect: {
        kind: "subscription",
        subscriptionId,
        status: "active",
        currentPeriodEnd: new Date(Date.now() + DAY),
      },
    });
    expect((await getMembership(user.id)).tier).toBe("analyst");
    await processEvent("test", {
      id: `evt_sub_refund_${unique()}`,
      type: "refund",
      effect: {
        kind: "refunded",
        providerPaymentId: (await paymentRow(paymentId)).providerPaymentId ?? "",
        refundedCents: 700,
        currency: "USD",
      },
    });
    const [sub] = await handle.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, subscriptionId));
    expect(sub?.status).toBe("canceled");
    expect((await getMembership(user.id)).tier).toBe("free");
  });

  it("credits once when the same confirmation arrives 10 times at once", async () => {
    const { user, paymentId, url } = await readerBuying("coins-30");
    const body = approval(url, 449);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => !answer.body.duplicate)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(33);
    expect(await ledgerBalance(handle.db, user.id)).toBe(33);
    const purchases = await handle.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(coinLedger)
      .where(and(eq(coinLedger.userId, user.id), eq(coinLedger.reason, "purchase")));
    expect(purchases[0]?.n).toBe(1);
    expect((await paymentRow(paymentId)).status).toBe("paid");
  });
});
