import { asc, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { orders, paymentEvents, payments, products, subscriptions } from "#db/schema";
import { saveCart } from "~/features/cart/queries.server";
import { getMembership } from "~/features/membership/queries.server";
import { refundPayment } from "~/features/orders/money.server";
import { placeOrder } from "~/features/orders/place.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { receiveWebhook } from "~/features/payments/webhook.server";
import { cancelSubscription, changeTier } from "~/features/subscriptions/commands.server";
import { FAKE_SECRET_KEY, FAKE_WEBHOOK_SECRET, startFakeStripe } from "../stripe/fake-stripe";
import { openTestDatabase } from "../support/database";
import { coinBalance, createAuthor, createReader } from "../support/factories";
import { unique } from "../support/unique";

/** The Stripe provider against a local server that answers the Stripe API, with webhooks signed by `stripe`. */
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  fake = await startFakeStripe();
  Object.assign(process.env, {
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.base,
    APP_ORIGIN: "https://read.example",
  });
  handle = await openTestDatabase("pglite");
});
afterAll(async () => {
  await handle.close();
  await fake.close();
});

const reader = () => createReader({ prefix: "stripe" });
const balanceOf = coinBalance;
const paymentRow = async (id: number) => {
  const [row] = await handle.db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error(`no payment ${id}`);
  return row;
};
const post = (delivery: { payload: string; signature: string }) =>
  receiveWebhook("stripe", delivery.payload, new Headers({ "stripe-signature": delivery.signature }));

/** A checkout through the fake Stripe, and the session as Stripe holds it. */
async function checkout(item: Parameters<typeof startCheckout>[1] = { kind: "coins", packKey: "coins-5" }) {
  const user = await reader();
  const { paymentId, url } = await startCheckout(user, item, { ip: unique() });
  const payment = await paymentRow(paymentId);
  const session = fake.sessions.get(payment.providerSessionId ?? "");
  if (!session) throw new Error("session not created at the fake Stripe");
  expect(url).toBe(session.url);
  return { user, paymentId, session };
}

describe("Stripe provider", () => {
  it("creates a Checkout Session with the server's price and an idempotency key", async () => {
    const { paymentId } = await checkout();
    const request = fake.requests.at(-1);
    expect(request?.path).toBe("/v1/checkout/sessions");
    expect(request?.idempotencyKey).toBe(`checkout:payment:${paymentId}`);
    expect(request?.params.get("mode")).toBe("payment");
    expect(request?.params.get("line_items[0][price_data][unit_amount]")).toBe("99");
    expect(request?.params.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(request?.params.get("success_url")).toBe(`https://read.example/coins?payment=${paymentId}`);
    expect(request?.params.get("client_reference_id")).toBe(String(paymentId));
  });

  it("retries a failed create with the same idempotency key and gets one session", async () => {
    fake.failNext(1);
    const before = fake.requests.length;
    const { paymentId } = await checkout();
    const calls = fake.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((call) => call.idempotencyKey))).toEqual(
      new Set([`checkout:payment:${paymentId}`]),
    );
  });

  it("opens a subscription-mode session for a support tier", async () => {
    await checkout({ kind: "subscription", tierKey: "observer" });
    const request = fake.requests.at(-1);
    expect(request?.params.get("mode")).toBe("subscription");
    expect(request?.params.get("line_items[0][price_data][recurring][interval]")).toBe("month");
    expect(request?.params.get("line_items[0][price_data][unit_amount]")).toBe("300");
  });

  it("fulfils checkout.session.completed once, verified over the raw body", async () => {
    const { user, paymentId, session } = await checkout();
    const completed = {
      ...session,
      payment_status: "paid",
      status: "complete",
      payment_intent: `pi_${unique()}`,
    };
    const delivery = fake.event("checkout.session.completed", completed);
    expect(await post(delivery)).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await post(delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await balanceOf(user.id)).toBe(8);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: "paid",
      providerPaymentId: completed.payment_intent,
    });
  });

  it("answers 400 and changes nothing for a bad, stale or tampered signature, or a wrong amount", async () => {
    const { user, paymentId, session } = await checkout();
    const paid = { ...session, payment_status: "paid", payment_intent: `pi_${unique()}` };
    const wrongSecret = fake.event("checkout.session.completed", paid, { secret: "whsec_someone_else" });
    const good = fake.event("checkout.session.completed", paid);
    const tampered = {
      payload: good.payload.replace('"amount_total":99', '"amount_total":98'),
      signature: good.signature,
    };
    const stale = {
      payload: good.payload,
      signature: new Stripe(FAKE_SECRET_KEY).webhooks.generateTestHeaderString({
        payload: good.payload,
        secret: FAKE_WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 600,
      }),
    };
    const cheap = fake.event("checkout.session.completed", { ...paid, amount_total: 1 });
    const euros = fake.event("checkout.session.completed", { ...paid, currency: "eur" });
    for (const delivery of [wrongSecret, tampered, stale, cheap, euros])
      expect((await post(delivery)).status).toBe(400);
    expect((await post({ payload: good.payload, signature: "" })).status).toBe(400);
    expect((await paymentRow(paymentId)).status).toBe("pending");
    expect(await balanceOf(user.id)).toBe(3);
  });

  it("waits for a delayed payment method, and records its failure", async () => {
    const { user, paymentId, session } = await checkout();
    expect(
      (await post(fake.event("checkout.session.completed", { ...session, payment_status: "unpaid" }))).status,
    ).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe("pending");
    expect((await post(fake.event("checkout.session.async_payment_failed", session))).status).toBe(200);
    expect((await paymentRow(paymentId)).status).toBe("failed");
    expect(await balanceOf(user.id)).toBe(3);
  });

  it("reverses a refund and a dispute", async () => {
    const refunded = await checkout({ kind: "coins", packKey: "coins-12" });
    const intent = `pi_${unique()}`;
    await post(
      fake.event("checkout.session.completed", {
        ...refunded.session,
        payment_status: "paid",
        payment_intent: intent,
      }),
    );
    expect(await balanceOf(refunded.user.id)).toBe(15);
    const charge = {
      id: `ch_${unique()}`,
      object: "charge",
      payment_intent: intent,
      amount: 199,
      amount_refunded: 199,
      currency: "usd",
    };
    expect((await post(fake.event("charge.refunded", charge))).status).toBe(200);
    expect(await balanceOf(refunded.user.id)).toBe(3);
    expect((await paymentRow(refunded.paymentId)).status).toBe("refunded");

    const disputed = await checkout({ kind: "coins", packKey: "coins-5" });
    const intent2 = `pi_${unique()}`;
    await post(
      fake.event("checkout.session.completed", {
        ...disputed.session,
        payment_status: "paid",
        payment_intent: intent2,
      }),
    );
    const dispute = {
      id: `dp_${unique()}`,
      object: "dispute",
      payment_intent: intent2,
      amount: 99,
      currency: "usd",
    };
    expect((await post(fake.event("charge.dispute.created", dispute))).status).toBe(200);
    expect(await balanceOf(disputed.user.id)).toBe(3);
    expect((await paymentRow(disputed.paymentId)).status).toBe("disputed");
  });

  it("refunds from the admin through Stripe's refunds API; charge.refunded then reverses the coins", async () => {
    const author = await createAuthor("stripe_refunder");
    const { user, paymentId, session } = await checkout({ kind: "coins", packKey: "coins-12" });
    const intent = `pi_${unique()}`;
    await post(
      fake.event("checkout.session.completed", {
        ...session,
        payment_status: "paid",
        payment_intent: intent,
      }),
    );
    // Stripe down: nothing is refunded, and the share asked for is given back for the next try.
    fake.failNext(3);
    expect(await refundPayment(paymentId, 100, "Asked twice", author)).toEqual({
      ok: false,
      reason: "unavailable",
    });
    expect(await paymentRow(paymentId)).toMatchObject({ refundRequestedCents: 0, refundedCents: 0 });

    expect(await refundPayment(paymentId, 100, "Asked twice", author)).toEqual({ ok: true });
    const request = fake.requests.at(-1);
    expect(request?.path).toBe("/v1/refunds");
    expect(request?.params.get("payment_intent")).toBe(intent);
    expect(request?.params.get("amount")).toBe("100");
    expect(request?.idempotencyKey).toBe(`refund:${paymentId}:100`);
    // Asked, not yet made: Stripe's event makes it.
    expect(await paymentRow(paymentId)).toMatchObject({
      status: "paid",
      refundRequestedCents: 100,
      refundedCents: 0,
    });
    const charge = {
      id: `ch_${unique()}`,
      object: "charge",
      payment_intent: intent,
      amount: 199,
      amount_refunded: 100,
      currency: "usd",
    };
    expect((await post(fake.event("charge.refunded", charge))).status).toBe(200);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "paid", refundedCents: 100 });
    // 12 coins bought, 100 of 199 cents refunded: 7 coins taken back (rounded up).
    expect(await balanceOf(user.id)).toBe(15 - 7);
    expect(await refundPayment(paymentId, 100, "Too much", author)).toEqual({ ok: false, reason: "tooMuch" });
  });

  it("grants a support tier from a subscription checkout until Stripe ends the subscription", async () => {
    const { user, session } = await checkout({ kind: "subscription", tierKey: "first_human" });
    const subscriptionId = `sub_${unique()}`;
    await post(
      fake.event("checkout.session.completed", {
        ...session,
        payment_status: "paid",
        subscription: subscriptionId,
        invoice: `in_${unique()}`,
      }),
    );
    expect(await getMembership(user.id)).toMatchObject({ tier: "first_human", source: "subscription" });
    const ended = {
      id: subscriptionId,
      object: "subscription",
      status: "canceled",
      items: { object: "list", data: [{ current_period_end: Math.floor(Date.now() / 1000) }] },
    };
    expect((await post(fake.event("customer.subscription.deleted", ended))).status).toBe(200);
    const [sub] = await handle.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, subscriptionId));
    expect(sub?.status).toBe("canceled");
    expect((await getMembership(user.id)).tier).toBe("free");
  });

  it("records events it does not act on, once", async () => {
    const delivery = fake.event("customer.created", { id: `cus_${unique()}`, object: "customer" });
    expect((await post(delivery)).status).toBe(200);
    const id = JSON.parse(delivery.payload).id as string;
    const [event] = await handle.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, id));
    expect(event).toMatchObject({ provider: "stripe", outcome: "ignored" });
  });
});

describe("Stripe provider, orders (ADR 25)", () => {
  const art = async () => {
    const [row] = await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, 1));
    return row?.stock ?? Number.NaN;
  };

  it("itemises an order's lines and expires the session with the reservation, clamped to 30 minutes", async () => {
    const user = await reader();
    await saveCart(user.id, [{ productId: 1, variantId: null, quantity: 3 }]);
    const placed = await placeOrder(user, orderAddress, { ip: unique() });
    const request = fake.requests.at(-1);
    expect(request?.params.get("line_items[0][price_data][unit_amount]")).toBe("1500");
    expect(request?.params.get("line_items[0][quantity]")).toBe("3");
    expect(request?.params.get("line_items[0][price_data][product_data][name]")).toBe("Bookmark Set (5pc)");
    expect(request?.params.get("success_url")).toBe(`https://read.example/orders/${placed.orderId}?returned`);
    expect(request?.params.get("cancel_url")).toBe(
      `https://read.example/orders/${placed.orderId}?returned&cancelled=1`,
    );
    const expiresAt = Number(request?.params.get("expires_at"));
    expect(expiresAt - Date.now() / 1000).toBeGreaterThanOrEqual(30 * 60);
    const session = fake.sessions.get((await paymentOf(placed.paymentId)).providerSessionId ?? "");
    expect(session?.amount_total).toBe(4500);
  });

  it("gives the stock back and fails the payment when Stripe cannot be reached", async () => {
    const user = await reader();
    await saveCart(user.id, [{ productId: 1, variantId: null, quantity: 2 }]);
    const before = await art();
    fake.failNext(3);
    await expect(placeOrder(user, orderAddress, { ip: unique() })).rejects.toMatchObject({
      code: "provider-unavailable",
      status: 503,
    });
    expect(await art()).toBe(before);
    const [order] = await handle.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order?.status).toBe("cancelled");
    expect((await paymentOf(order?.paymentId ?? 0)).status).toBe("failed");
  });
});

const paymentOf = paymentRow;
const orderAddress = {
  shipName: "Ilse Marrow",
  shipLine1: "12 Lantern Row",
  shipCity: "New Lumen",
  shipPostalCode: "NL-1207",
  shipCountry: "GB",
};

describe("Stripe provider, support subscriptions (ADR 27)", () => {
  const DAY = 24 * 60 * 60;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const subRow = async (id: string) => {
    const [row] = await handle.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, id));
    if (!row) throw new Error(`no subscription ${id}`);
    return row;
  };
  const paidOf = (userId: number) =>
    handle.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(asc(payments.id))
      .then((rows) => rows.filter((row) => row.status === "paid"));

  /** An invoice as Stripe sends it (the 2025 shape: the subscription under parent.subscription_details). */
  const invoice = (
    subscription: string,
    paymentId: number,
    amount: number,
    period: { start: number; end: number },
    reason: string,
  ) => ({
    id: `in_${unique()}`,
    object: "invoice",
    amount_paid: amount,
    currency: "usd",
    billing_reason: reason,
    status_transitions: { paid_at: period.start },
    parent: {
      type: "subscription_details",
      subscription_details: { subscription, metadata: { paymentId: String(paymentId), tierKey: "analyst" } },
    },
    payments: { data: [{ payment: { type: "payment_intent", payment_intent: `pi_${unique()}` } }] },
    lines: { data: [{ period }] },
  });

  it("opens subscription Checkout with our payment id and tier in the subscription's metadata", async () => {
    const { paymentId } = await checkout({ kind: "subscription", tierKey: "analyst" });
    const request = fake.requests.at(-1);
    expect(request?.params.get("subscription_data[metadata][paymentId]")).toBe(String(paymentId));
    expect(request?.params.get("subscription_data[metadata][tierKey]")).toBe("analyst");
  });

  it("takes the first invoice before checkout.session.completed, then renewals once each, failures and state", async () => {
    const { user, paymentId, session } = await checkout({ kind: "subscription", tierKey: "analyst" });
    const subscriptionId = `sub_${unique()}`;
    const start = nowSeconds();
    const first = invoice(
      subscriptionId,
      paymentId,
      700,
      { start, end: start + 30 * DAY },
      "subscription_create",
    );
    expect((await post(fake.event("invoice.paid", first))).status).toBe(200);
    await post(fake.event("invoice.payment_succeeded", first));
    await post(
      fake.event("checkout.session.completed", {
        ...session,
        payment_status: "paid",
        subscription: subscriptionId,
        invoice: first.id,
      }),
    );
    expect(await paidOf(user.id)).toHaveLength(1);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: "paid",
      providerInvoiceId: first.id,
      providerPaymentId: first.payments.data[0]?.payment.payment_intent,
    });
    expect((await subRow(subscriptionId)).currentPeriodEnd).toEqual(new Date((start + 30 * DAY) * 1000));

    const renewal = invoice(
      subscriptionId,
      paymentId,
      700,
      { start: start + 30 * DAY, end: start + 60 * DAY },
      "subscription_cycle",
    );
    await post(fake.event("invoice.paid", renewal));
    await post(fake.event("invoice.payment_succeeded", renewal));
    const rows = await paidOf(user.id);
    expect(rows.map((row) => [row.kind, row.amountCents, row.currency])).toEqual([
      ["subscription", 700, "USD"],
      ["subscription", 700, "USD"],
    ]);
    expect(rows[1]?.paidAt).toEqual(new Date((start + 30 * DAY) * 1000));
    expect(await getMembership(user.id, new Date((start + 45 * DAY) * 1000))).toMatchObject({
      tier: "analyst",
      totalSpentCents: 1400,
    });

    const failed = invoice(
      subscriptionId,
      paymentId,
      700,
      { start: start + 60 * DAY, end: start + 90 * DAY },
      "subscription_cycle",
    );
    await post(fake.event("invoice.payment_failed", { ...failed, amount_paid: 0 }));
    expect(await subRow(subscriptionId)).toMatchObject({
      status: "past_due",
      graceUntil: new Date((start + 63 * DAY) * 1000),
    });

    const state = (cancel: boolean, created: number, status = "active") =>
      fake.event(
        "customer.subscription.updated",
        {
          id: subscriptionId,
          object: "subscription",
          status,
          cancel_at_period_end: cancel,
          metadata: { tierKey: "analyst" },
          items: { data: [{ current_period_end: start + 60 * DAY, price: { unit_amount: 700 } }] },
        },
        { created },
      );
    await post(state(true, start + 61 * DAY, "past_due"));
    // An older event arriving late changes no state.
    await post(state(false, start + 10 * DAY));
    expect(await subRow(subscriptionId)).toMatchObject({ cancelAtPeriodEnd: true, status: "past_due" });
    await post(
      fake.event("customer.subscription.deleted", {
        id: subscriptionId,
        object: "subscription",
        status: "canceled",
        items: { data: [{ current_period_end: start + 60 * DAY }] },
      }),
    );
    expect((await subRow(subscriptionId)).status).toBe("canceled");
  });

  it("asks Stripe to cancel at the period end and to change the price (prorated up, not down)", async () => {
    const { paymentId, session, user } = await checkout({ kind: "subscription", tierKey: "analyst" });
    const subscriptionId = `sub_${unique()}`;
    fake.subscriptions.set(subscriptionId, {
      id: subscriptionId,
      object: "subscription",
      status: "active",
      cancel_at_period_end: false,
      metadata: { paymentId: String(paymentId), tierKey: "analyst" },
      items: {
        object: "list",
        data: [{ id: "si_1", price: { id: "price_1", product: "prod_1", unit_amount: 700 } }],
      },
    });
    await post(
      fake.event("checkout.session.completed", {
        ...session,
        payment_status: "paid",
        subscription: subscriptionId,
        invoice: `in_${unique()}`,
      }),
    );
    await cancelSubscription(user.id);
    const cancel = fake.requests.at(-1);
    expect(cancel?.path).toBe(`/v1/subscriptions/${subscriptionId}`);
    expect(cancel?.params.get("cancel_at_period_end")).toBe("true");
    // Nothing changes here until Stripe's event says so.
    expect((await subRow(subscriptionId)).cancelAtPeriodEnd).toBe(false);

    expect(await changeTier(user.id, "first_human")).toBe("upgrade");
    const up = fake.requests.at(-1);
    expect(up?.params.get("items[0][price_data][unit_amount]")).toBe("1500");
    expect(up?.params.get("items[0][price_data][product]")).toBe("prod_1");
    expect(up?.params.get("proration_behavior")).toBe("always_invoice");
    expect(up?.params.get("metadata[tierKey]")).toBe("first_human");
    expect(await changeTier(user.id, "observer")).toBe("downgrade");
    expect(fake.requests.at(-1)?.params.get("proration_behavior")).toBe("none");

    fake.failNext(3);
    await expect(cancelSubscription(user.id)).rejects.toMatchObject({ status: 503 });
  });
});
