import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { payments, subscriptions, type TierKey } from "#db/schema";
import { getGoals } from "~/features/fundraiser/queries.server";
import { getMembership } from "~/features/membership/queries.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { addMonths } from "~/features/payments/subscription-rules";
import { runTestBilling, type TestBillingAction } from "~/features/payments/test-billing.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import {
  readTestEvent,
  signedDelivery,
  type TestEventBody,
  testBilling,
} from "~/features/payments/test-provider.server";
import { deliverSigned, receiveWebhook } from "~/features/payments/webhook.server";
import { cancelSubscription, changeTier, resumeSubscription } from "~/features/subscriptions/commands.server";
import { getSubscriptionPanel } from "~/features/subscriptions/queries.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { waitForMail } from "../support/mail";
import { unique } from "../support/unique";

/**
 * Support subscriptions on the test provider's billing engine (ADR 27), on both databases: each change
 * arrives as a signed event through the webhook path; the tests drive the clock by passing `now`.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-subs-"));
process.env.DATA_DIR = dataDir;

const DAY = 24 * 60 * 60 * 1000;
const after = (date: Date, ms: number) => new Date(date.getTime() + ms);

describe.each(drivers)("support subscriptions on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await handle.close();
  });

  const subOf = async (userId: number) => {
    const [row] = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    if (!row) throw new Error(`no subscription for ${userId}`);
    return row;
  };
  const paidRows = (userId: number) =>
    handle.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
      .orderBy(asc(payments.paidAt), asc(payments.id));
  const tierAt = async (userId: number, at: Date) => (await getMembership(userId, at)).tier;
  const bill = async (userId: number, action: TestBillingAction, now: Date) =>
    runTestBilling(await subOf(userId), action, now);
  const deliver = (body: TestEventBody, now = new Date()) =>
    deliverSigned("test", [signedDelivery(body)], undefined, now);

  /** A new reader who joined `tier` and approved on the test provider's page at `now`. */
  async function subscriber(tier: TierKey = "analyst", now = new Date()) {
    const user = await createReader({ prefix: "backer" });
    const { paymentId, url } = await startCheckout(
      user,
      { kind: "subscription", tierKey: tier },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve", undefined, now);
    return { user, paymentId, url, now };
  }

  it("approves: the tier until the period end, one paid invoice, a receipt in the payer's language", async () => {
    const { user, paymentId, now } = await subscriber("analyst");
    const sub = await subOf(user.id);
    expect(sub).toMatchObject({ tierKey: "analyst", status: "active", amountCents: 700, currency: "USD" });
    expect(sub.currentPeriodEnd).toEqual(new Date(Math.floor(addMonths(now).getTime() / 1000) * 1000));
    const rows = await paidRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: paymentId,
      kind: "subscription",
      subscriptionId: sub.id,
      amountCents: 700,
    });
    expect(rows[0]?.providerInvoiceId).toMatch(/^tin_/);
    expect(await getMembership(user.id, after(now, DAY))).toMatchObject({
      tier: "analyst",
      source: "subscription",
      totalSpentCents: 700,
    });
    const mail = await waitForMail(dataDir, user.email, { containing: "$7.00" });
    expect(mail).toContain("Analyst support (monthly)");
    // A new supporter's receipt welcomes them with each perk of the tier and where it lives.
    expect(mail).toContain("Your perks as a supporter");
    expect(mail).toContain("Monthly Q&A: ask the author a question each month");
    expect(mail).toMatch(/href="https?:\/\/[^"]+\/polls"/);
    expect(mail).not.toContain("Beta reader");
    const panel = await getSubscriptionPanel(user.id, after(now, DAY));
    expect(panel.subscription).toMatchObject({
      tierKey: "analyst",
      phase: "active",
      periodEnd: sub.currentPeriodEnd.toISOString(),
    });
    expect(panel.tiers.map((tier) => [tier.key, tier.amountCents])).toEqual([
      ["observer", 300],
      ["analyst", 700],
      ["first_human", 1500],
    ]);
  });

  it("declines: the payment fails, no subscription, no tier", async () => {
    const user = await createReader({ prefix: "backer" });
    const { paymentId, url } = await startCheckout(
      user,
      { kind: "subscription", tierKey: "observer" },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "decline");
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    const [payment] = await handle.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment?.status).toBe("failed");
    expect(await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toEqual([]);
    expect(await tierAt(user.id, new Date())).toBe("free");
  });

  it("renews a month later: +$7 spent, a row paid at the renewal, the tier another month; once per period", async () => {
    const { user, now } = await subscriber("analyst");
    const seen = new Set<string>();
    await waitForMail(dataDir, user.email, { containing: "renews on", seen });
    const firstEnd = (await subOf(user.id)).currentPeriodEnd;
    const renewedAt = after(firstEnd, 60_000);
    // The fundraiser's monthly goal counts the renewal in the month it is paid.
    const monthBefore = (await getGoals(renewedAt)).monthly?.raisedCents;
    await bill(user.id, "renew", renewedAt);
    expect((await getGoals(renewedAt)).monthly?.raisedCents).toBe((monthBefore ?? Number.NaN) + 700);
    const renewal = testBilling.renewal(await subOf(user.id), renewedAt);
    expect(renewal.data).toBeDefined();
    // The same period renewed again is the same invoice: nothing more.
    await runTestBilling({ ...(await subOf(user.id)), currentPeriodEnd: firstEnd }, "renew", renewedAt);
    const rows = await paidRows(user.id);
    expect(rows.map((row) => [row.kind, row.amountCents, row.currency])).toEqual([
      ["subscription", 700, "USD"],
      ["subscription", 700, "USD"],
    ]);
    expect(rows[1]?.paidAt).toEqual(new Date(Math.floor(renewedAt.getTime() / 1000) * 1000));
    const sub = await subOf(user.id);
    expect(sub.currentPeriodEnd).toEqual(addMonths(firstEnd));
    expect(await getMembership(user.id, after(firstEnd, 20 * DAY))).toMatchObject({
      tier: "analyst",
      totalSpentCents: 1400,
    });
    expect(await tierAt(user.id, after(now, 10 * DAY))).toBe("analyst");
    const renewalMail = await waitForMail(dataDir, user.email, { containing: "renews on", seen });
    // A renewal is a receipt, not a welcome: no perks listed again.
    expect(renewalMail).not.toContain("Your perks as a supporter");
  });

  it("fails a renewal: past due with 3 days' grace from the renewal date, then free; a paid retry restores it", async () => {
    const { user } = await subscriber("analyst");
    const end = (await subOf(user.id)).currentPeriodEnd;
    await bill(user.id, "fail", after(end, 60_000));
    const sub = await subOf(user.id);
    expect(sub).toMatchObject({ status: "past_due", graceUntil: after(end, 3 * DAY) });
    // A second failed attempt does not lengthen the grace.
    await bill(user.id, "fail", after(end, DAY));
    expect((await subOf(user.id)).graceUntil).toEqual(after(end, 3 * DAY));
    expect(await tierAt(user.id, after(end, 3 * DAY - 1000))).toBe("analyst");
    expect(await tierAt(user.id, after(end, 3 * DAY + 1000))).toBe("free");
    expect((await getSubscriptionPanel(user.id, after(end, DAY))).subscription?.phase).toBe("grace");
    await waitForMail(dataDir, user.email, { containing: "could not charge" });
    // The retry is paid within the grace: active again for the next month.
    await bill(user.id, "renew", after(end, 2 * DAY));
    expect(await subOf(user.id)).toMatchObject({
      status: "active",
      graceUntil: null,
      currentPeriodEnd: addMonths(end),
    });
    expect(await tierAt(user.id, after(end, 10 * DAY))).toBe("analyst");
  });

  it("ends the tier 3 days after the period end when no renewal event ever arrives (dates, not status)", async () => {
    const { user } = await subscriber("observer");
    const end = (await subOf(user.id)).currentPeriodEnd;
    expect((await getSubscriptionPanel(user.id, after(end, DAY))).subscription?.phase).toBe("renewing");
    expect(await tierAt(user.id, after(end, 3 * DAY + 1000))).toBe("free");
  });

  it("cancels from the account: the tier to the period end, then free; resume; spend keeps its own tier", async () => {
    const { user, now } = await subscriber("first_human");
    await cancelSubscription(user.id, undefined, after(now, DAY));
    const sub = await subOf(user.id);
    expect(sub).toMatchObject({ cancelAtPeriodEnd: true, status: "active" });
    expect((await getSubscriptionPanel(user.id, after(now, 2 * DAY))).subscription?.phase).toBe("ending");
    await resumeSubscription(user.id, undefined, after(now, 2 * DAY));
    expect((await subOf(user.id)).cancelAtPeriodEnd).toBe(false);
    await cancelSubscription(user.id, undefined, after(now, 3 * DAY));
    const end = sub.currentPeriodEnd;
    expect(await tierAt(user.id, after(end, -1000))).toBe("first_human");
    // No event at the period end: the tier ends by the date alone ($15 spent is below every spend tier).
    expect(await tierAt(user.id, after(end, 1000))).toBe("free");
    // The provider ends it at the period end; a reader whose spend reaches $20 keeps observer.
    await bill(user.id, "renew", end);
    expect(await subOf(user.id)).toMatchObject({ status: "canceled" });
    expect(await paidRows(user.id)).toHaveLength(1);
    const other = await subscriber("first_human");
    await deliver(
      testBilling.upgradeInvoice(
        { ...(await subOf(other.user.id)), amountCents: 0 },
        500,
        other.now,
      ) as TestEventBody,
      other.now,
    );
    await cancelSubscription(other.user.id, undefined, other.now);
    const otherEnd = (await subOf(other.user.id)).currentPeriodEnd;
    expect(await getMembership(other.user.id, after(otherEnd, 1000))).toMatchObject({
      tier: "observer",
      source: "spend",
    });
  });

  it("upgrades now with a prorated charge; downgrades at the renewal", async () => {
    const { user, now } = await subscriber("observer");
    const start = now;
    const end = (await subOf(user.id)).currentPeriodEnd;
    const halfway = new Date((start.getTime() + end.getTime()) / 2);
    expect(await changeTier(user.id, "first_human", undefined, halfway)).toBe("upgrade");
    expect(await subOf(user.id)).toMatchObject({
      tierKey: "first_human",
      amountCents: 1500,
      pendingTierKey: null,
    });
    expect(await tierAt(user.id, after(halfway, 1000))).toBe("first_human");
    const charge = (await paidRows(user.id))[1];
    expect(charge?.description).toBe("First Human (upgrade)");
    // Half of the period left, of $12 more a month: about $6 (the period is counted in whole seconds).
    expect(charge?.amountCents).toBeGreaterThanOrEqual(590);
    expect(charge?.amountCents).toBeLessThanOrEqual(610);

    expect(await changeTier(user.id, "analyst", undefined, after(halfway, DAY))).toBe("downgrade");
    expect(await subOf(user.id)).toMatchObject({ tierKey: "first_human", pendingTierKey: "analyst" });
    expect(await tierAt(user.id, after(end, -1000))).toBe("first_human");
    await expect(changeTier(user.id, "first_human", undefined, after(halfway, 2 * DAY))).resolves.toBe(
      "same",
    );
    expect((await subOf(user.id)).pendingTierKey).toBeNull();
    await changeTier(user.id, "analyst", undefined, after(halfway, 3 * DAY));
    await bill(user.id, "renew", end);
    expect(await subOf(user.id)).toMatchObject({
      tierKey: "analyst",
      pendingTierKey: null,
      amountCents: 700,
    });
    expect((await paidRows(user.id)).at(-1)).toMatchObject({ amountCents: 700, tierKey: "analyst" });
    expect(await tierAt(user.id, after(end, DAY))).toBe("analyst");
    await expect(changeTier(user.id, "analyst", undefined, after(end, DAY))).rejects.toMatchObject({
      status: 409,
    });
  });

  it("refuses a second subscription: joining while subscribed is a translated 409", async () => {
    const { user } = await subscriber("observer");
    await expect(
      startCheckout(user, { kind: "subscription", tierKey: "analyst" }, { ip: unique() }),
    ).rejects.toMatchObject({ status: 409, messageKey: "subscriptions.errors.alreadySubscribed" });
  });

  /** A reader's pending subscription checkout, and its first invoice as the provider sends it. */
  async function pendingJoin(tier: TierKey, amountCents: number, now: Date) {
    const user = await createReader({ prefix: "backer" });
    const { paymentId, url } = await startCheckout(
      user,
      { kind: "subscription", tierKey: tier },
      { ip: unique() },
    );
    const subscription = `tsub_${unique()}`;
    const periodEnd = Math.floor(addMonths(now).getTime() / 1000);
    const invoice: TestEventBody = {
      id: `evt_${unique()}`,
      type: "invoice.paid",
      data: {
        subscription,
        invoice: `tin_${subscription}_first`,
        payment: paymentId,
        amountCents,
        currency: "USD",
        paidAt: Math.floor(now.getTime() / 1000),
        periodEnd,
        reason: "create",
      },
    };
    const session = url.replace("/pay/test/", "");
    return { user, paymentId, session, subscription, periodEnd, invoice };
  }

  it("takes the first invoice arriving before the checkout's confirmation as that confirmation", async () => {
    const now = new Date();
    const { user, paymentId, session, subscription, periodEnd, invoice } = await pendingJoin(
      "analyst",
      700,
      now,
    );
    await deliver(invoice);
    await deliver({ ...invoice, id: `evt_${unique()}` });
    await deliver({
      id: `evt_${unique()}`,
      type: "checkout.approved",
      data: {
        session,
        amountCents: 700,
        currency: "USD",
        subscription,
        invoice: invoice.data.invoice,
        periodEnd,
      },
    } as TestEventBody);
    const rows = await paidRows(user.id);
    expect(rows.map((row) => row.id)).toEqual([paymentId]);
    expect(await subOf(user.id)).toMatchObject({ providerSubscriptionId: subscription, status: "active" });
    expect(await getMembership(user.id, now)).toMatchObject({ tier: "analyst", totalSpentCents: 700 });
  });

  it("counts the first invoice once when the checkout's confirmation did not name it", async () => {
    const now = new Date();
    const { user, paymentId, session, subscription, invoice } = await pendingJoin("observer", 300, now);
    await deliver({
      id: `evt_${unique()}`,
      type: "checkout.approved",
      data: { session, amountCents: 300, currency: "USD", subscription },
    });
    await deliver(invoice);
    const rows = await paidRows(user.id);
    expect(rows.map((row) => [row.id, row.providerInvoiceId])).toEqual([
      [paymentId, `tin_${subscription}_first`],
    ]);
    expect((await getMembership(user.id, now)).totalSpentCents).toBe(300);
  });

  it("ends in the same state whatever order, and however often, the events arrive", async () => {
    const { user, now } = await subscriber("analyst");
    const sub = await subOf(user.id);
    const end1 = sub.currentPeriodEnd;
    const second = testBilling.renewal(sub, after(end1, 1000));
    const third = testBilling.renewal(
      { ...sub, currentPeriodEnd: addMonths(end1) },
      after(addMonths(end1), 1000),
    );
    const cancelled = testBilling.state(sub, after(now, 5 * DAY), { cancelAtPeriodEnd: true });
    const olderState = testBilling.state(sub, after(now, 2 * DAY), { cancelAtPeriodEnd: false });
    // Out of order: the third period's invoice first, the older state after the newer, each twice.
    for (const event of [third, cancelled, second, olderState, third, second, cancelled, olderState])
      await deliver(event);
    const final = await subOf(user.id);
    expect(final.currentPeriodEnd).toEqual(addMonths(addMonths(end1)));
    expect(final.cancelAtPeriodEnd).toBe(true);
    expect(final.status).toBe("active");
    expect((await paidRows(user.id)).map((row) => row.amountCents)).toEqual([700, 700, 700]);
    expect((await getMembership(user.id, after(end1, DAY))).totalSpentCents).toBe(2100);
    // An old state with an earlier period end never moves the period back.
    await deliver(testBilling.state({ ...sub, currentPeriodEnd: end1 }, after(now, 6 * DAY)));
    expect((await subOf(user.id)).currentPeriodEnd).toEqual(final.currentPeriodEnd);
    // A failure older than a paid renewal changes nothing.
    await deliver(testBilling.failedRenewal(sub, after(end1, 500)));
    expect((await subOf(user.id)).status).toBe("active");
  });

  it("a refund of the first payment or of a renewal ends the subscription and lowers total spent", async () => {
    const { user, paymentId } = await subscriber("analyst");
    const [first] = await handle.db.select().from(payments).where(eq(payments.id, paymentId));
    await processEvent("test", {
      id: `evt_refund_${unique()}`,
      type: "refund",
      effect: {
        kind: "refunded",
        providerPaymentId: first?.providerPaymentId ?? "",
        refundedCents: 700,
        currency: "USD",
      },
    });
    const sub = await subOf(user.id);
    expect(sub.status).toBe("canceled");
    expect(await getMembership(user.id, new Date())).toMatchObject({ tier: "free", totalSpentCents: 0 });

    const other = await subscriber("observer");
    const end = (await subOf(other.user.id)).currentPeriodEnd;
    await bill(other.user.id, "renew", end);
    const renewal = (await paidRows(other.user.id))[1];
    await processEvent("test", {
      id: `evt_dispute_${unique()}`,
      type: "dispute",
      effect: { kind: "disputed", providerPaymentId: renewal?.providerPaymentId ?? "", currency: "USD" },
    });
    expect((await subOf(other.user.id)).status).toBe("canceled");
    expect(await getMembership(other.user.id, after(end, DAY))).toMatchObject({
      tier: "free",
      totalSpentCents: 300,
    });
  });

  it("refuses an invoice in another currency or for nothing, and an unsigned one", async () => {
    const { user } = await subscriber("analyst");
    const sub = await subOf(user.id);
    const renewal = testBilling.renewal(sub, after(sub.currentPeriodEnd, 1000));
    const inYen = {
      ...renewal,
      id: `evt_${unique()}`,
      data: { ...renewal.data, currency: "JPY" },
    } as TestEventBody;
    const raw = JSON.stringify(inYen);
    expect((await receiveWebhook("test", raw, signedDelivery(inYen).headers)).status).toBe(400);
    const zero = {
      ...renewal,
      id: `evt_${unique()}`,
      data: { ...renewal.data, amountCents: 0 },
    } as TestEventBody;
    expect((await receiveWebhook("test", JSON.stringify(zero), signedDelivery(zero).headers)).status).toBe(
      400,
    );
    expect((await receiveWebhook("test", JSON.stringify(renewal), new Headers())).status).toBe(400);
    expect(await paidRows(user.id)).toHaveLength(1);
    expect(readTestEvent(renewal).effect.kind).toBe("invoice-paid");
  });
});

/** Concurrent deliveries and joins on PostgreSQL, where transactions truly run at once. */
describe.skipIf(!drivers.includes("postgres"))("support subscriptions racing on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  async function subscribed(): Promise<TestReader> {
    const user = await createReader({ prefix: "racer" });
    const { url } = await startCheckout(user, { kind: "subscription", tierKey: "analyst" }, { ip: unique() });
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    return user;
  }

  it("records a renewal once when it arrives 10 times at once, under two event ids", async () => {
    const user = await subscribed();
    const [sub] = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    if (!sub) throw new Error("no subscription");
    const renewal = testBilling.renewal(sub, after(sub.currentPeriodEnd, 1000));
    const twin = { ...renewal, id: `${renewal.id}_succeeded` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const delivery = signedDelivery(i % 2 ? twin : renewal);
        return receiveWebhook("test", delivery.rawBody, delivery.headers);
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const rows = await handle.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.status, "paid")));
    expect(rows).toHaveLength(2);
    expect((await getMembership(user.id, after(sub.currentPeriodEnd, DAY))).totalSpentCents).toBe(1400);
  });

  it("keeps one subscription checkout open when a reader joins 5 times at once; none once subscribed", async () => {
    const user = await createReader({ prefix: "racer" });
    const joins = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        startCheckout(user, { kind: "subscription", tierKey: "observer" }, { ip: unique() }),
      ),
    );
    expect(joins.every((join) => join.status === "fulfilled")).toBe(true);
    const pending = await handle.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.status, "pending")));
    expect(pending).toHaveLength(1);

    const member = await subscribed();
    const again = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        startCheckout(member, { kind: "subscription", tierKey: "first_human" }, { ip: unique() }),
      ),
    );
    expect(again.map((join) => join.status)).toEqual(Array(5).fill("rejected"));
    const subs = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, member.id));
    expect(subs).toHaveLength(1);
  });

  it("applies a tier change and two cancels sent at once, ending in one consistent state", async () => {
    const user = await subscribed();
    const now = new Date();
    await Promise.all([
      changeTier(user.id, "first_human", undefined, now),
      cancelSubscription(user.id, undefined, now),
      cancelSubscription(user.id, undefined, now),
    ]);
    const [sub] = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({ tierKey: "first_human", cancelAtPeriodEnd: true, status: "active" });
    const upgrades = await handle.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.description, "First Human (upgrade)")));
    expect(upgrades).toHaveLength(1);
  });
});
