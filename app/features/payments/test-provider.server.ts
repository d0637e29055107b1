import crypto from "node:crypto";
import { z } from "zod";
import { getEnv } from "~/lib/env.server";
import {
  BadSignature,
  type PaymentEffect,
  type PaymentProvider,
  type ProviderEvent,
  type SignedDelivery,
} from "./provider.server";
import { addMonths, proratedCents } from "./subscription-rules";

/**
 * The built-in test provider: a hosted page of our own (/pay/test/:session) that says it is a test and
 * lets the payer approve or decline. Its answer reaches the app as a signed event through the same
 * webhook path as Stripe's (verify, deduplicate by event id, fulfil), so nothing is granted any other way.
 */
export const TEST_SIGNATURE_HEADER = "x-test-payment-signature";
/** Events older (or newer) than this are refused, as Stripe does. */
export const TOLERANCE_SECONDS = 300;

const seconds = z.number().int().min(0).max(32_503_680_000);
const id = z.string().min(1).max(200);
const money = { amountCents: z.number().int(), currency: z.string().min(3).max(3) };

/** The test provider's events, Stripe-like: ids, unix-second times, our payment id in the metadata. */
const testEventSchema = z.discriminatedUnion("type", [
  z.object({
    id,
    type: z.enum(["checkout.approved", "checkout.declined"]),
    data: z.object({
      session: id,
      ...money,
      /** A subscription checkout: the subscription it starts, its first invoice and the period it pays. */
      subscription: id.optional(),
      invoice: id.optional(),
      periodEnd: seconds.optional(),
    }),
  }),
  z.object({
    id,
    type: z.literal("invoice.paid"),
    data: z.object({
      subscription: id,
      invoice: id,
      payment: z.number().int().positive().nullable(),
      ...money,
      paidAt: seconds,
      periodEnd: seconds,
      reason: z.enum(["create", "cycle", "update"]),
    }),
  }),
  z.object({
    id,
    type: z.literal("invoice.payment_failed"),
    data: z.object({ subscription: id, invoice: id, periodStart: seconds, at: seconds }),
  }),
  z.object({
    id,
    type: z.literal("charge.refunded"),
    /** What has been refunded of the payment so far, this refund included (Stripe's amount_refunded). */
    data: z.object({ payment: id, refundedCents: z.number().int().positive(), currency: money.currency }),
  }),
  z.object({
    id,
    type: z.enum(["subscription.updated", "subscription.deleted"]),
    data: z.object({
      subscription: id,
      /** Only what changed: the test provider keeps no state of its own, so it never restates the rest. */
      status: z.enum(["active", "past_due", "canceled"]).optional(),
      periodEnd: seconds,
      cancelAtPeriodEnd: z.boolean().optional(),
      tierKey: z.string().max(40).optional(),
      amountCents: z.number().int().optional(),
      at: seconds,
    }),
  }),
]);

export type TestEventBody = z.infer<typeof testEventSchema>;

let processSecret: string | undefined;

/** TEST_PAYMENT_SECRET, or a random secret for this process (the hosted page signs in-process). */
export function testSigningSecret(): string {
  const configured = getEnv().TEST_PAYMENT_SECRET;
  if (configured) return configured;
  processSecret ??= crypto.randomBytes(32).toString("hex");
  return processSecret;
}

function hmac(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The signature header for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signTestEvent(body: string, secret = testSigningSecret(), now = Date.now()): string {
  const timestamp = Math.floor(now / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export function verifyTestSignature(
  body: string,
  header: string | null,
  secret = testSigningSecret(),
  now = Date.now(),
): void {
  if (!header) throw new BadSignature("no signature header");
  const parts = new Map(
    header.split(",").map((part) => {
      const index = part.indexOf("=");
      return [part.slice(0, index).trim(), part.slice(index + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get("t"));
  const given = parts.get("v1") ?? "";
  if (!Number.isInteger(timestamp)) throw new BadSignature("no timestamp");
  if (Math.abs(now / 1000 - timestamp) > TOLERANCE_SECONDS)
    throw new BadSignature("timestamp outside tolerance");
  const expected = Buffer.from(hmac(secret, timestamp, body), "hex");
  const actual = Buffer.from(/^[0-9a-f]+$/i.test(given) ? given : "", "hex");
  if (actual.length !== expected.length || !crypto.timingSafeEqual(actual, expected))
    throw new BadSignature("signature mismatch");
}

const fromSeconds = (value: number) => new Date(value * 1000);
const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function readTestEvent(body: TestEventBody): ProviderEvent {
  return { id: body.id, type: body.type, effect: effectOf(body) };
}

function effectOf(body: TestEventBody): PaymentEffect {
  switch (body.type) {
    case "checkout.approved": {
      const { session, amountCents, currency, subscription, invoice, periodEnd } = body.data;
      return {
        kind: "paid",
        sessionId: session,
        amountCents,
        currency,
        providerPaymentId: `test_${invoice ?? session}`,
        ...(subscription && {
          subscriptionId: subscription,
          invoiceId: invoice ?? null,
          periodEnd: periodEnd === undefined ? null : fromSeconds(periodEnd),
        }),
      };
    }
    case "checkout.declined":
      return { kind: "failed", sessionId: body.data.session };
    case "charge.refunded": {
      const { payment, refundedCents, currency } = body.data;
      return { kind: "refunded", providerPaymentId: payment, refundedCents, currency };
    }
    case "invoice.paid": {
      const { data } = body;
      return {
        kind: "invoice-paid",
        subscriptionId: data.subscription,
        invoiceId: data.invoice,
        paymentRef: data.payment,
        amountCents: data.amountCents,
        currency: data.currency,
        providerPaymentId: `test_${data.invoice}`,
        paidAt: fromSeconds(data.paidAt),
        periodEnd: fromSeconds(data.periodEnd),
        reason: data.reason,
      };
    }
    case "invoice.payment_failed":
      return {
        kind: "invoice-failed",
        subscriptionId: body.data.subscription,
        invoiceId: body.data.invoice,
        periodStart: fromSeconds(body.data.periodStart),
        at: fromSeconds(body.data.at),
      };
    default: {
      const { data } = body;
      return {
        kind: "subscription",
        subscriptionId: data.subscription,
        status: body.type === "subscription.deleted" ? "canceled" : (data.status ?? ""),
        currentPeriodEnd: fromSeconds(data.periodEnd),
        ...(data.cancelAtPeriodEnd !== undefined && { cancelAtPeriodEnd: data.cancelAtPeriodEnd }),
        ...(data.tierKey !== undefined && { tierKey: data.tierKey }),
        ...(data.amountCents !== undefined && { amountCents: data.amountCents }),
        at: fromSeconds(data.at),
      };
    }
  }
}

/** A body signed the way the test provider signs, ready for the webhook path. */
export function signedDelivery(body: TestEventBody): SignedDelivery {
  const rawBody = JSON.stringify(body);
  return {
    rawBody,
    headers: new Headers({
      [TEST_SIGNATURE_HEADER]: signTestEvent(rawBody),
      "content-type": "application/json",
    }),
  };
}

/** The subscription as the test provider's billing engine sees it (from the test page or a test). */
export type TestSubscription = {
  providerSubscriptionId: string;
  tierKey: string;
  amountCents: number;
  currency: string;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  status: string;
};

const short = () => crypto.randomBytes(6).toString("hex");

/** A paid invoice's event: a renewal ("cycle") or an upgrade's charge ("update"). */
function paidInvoice(
  sub: TestSubscription,
  invoice: string,
  amountCents: number,
  now: Date,
  periodEnd: Date,
  reason: "cycle" | "update",
): TestEventBody {
  return {
    id: `evt_${invoice}_paid`,
    type: "invoice.paid",
    data: {
      subscription: sub.providerSubscriptionId,
      invoice,
      payment: null,
      amountCents,
      currency: sub.currency,
      paidAt: toSeconds(now),
      periodEnd: toSeconds(periodEnd),
      reason,
    },
  };
}

/**
 * The test provider's billing engine, like Stripe's test clocks: the events a subscription produces at
 * `now`, built and signed by the provider. A renewal's invoice id is fixed by the period it pays, so
 * renewing one period twice is one invoice delivered twice.
 */
export const testBilling = {
  /** The renewal at the period end: paid for the next month at `amountCents` (a downgrade's price). */
  renewal(sub: TestSubscription, now: Date, amountCents = sub.amountCents): TestEventBody {
    const periodEnd = addMonths(sub.currentPeriodEnd);
    const invoice = `tin_${sub.providerSubscriptionId}_${toSeconds(periodEnd)}`;
    return paidInvoice(sub, invoice, amountCents, now, periodEnd, "cycle");
  },
  failedRenewal(sub: TestSubscription, now: Date): TestEventBody {
    const invoice = `tin_${sub.providerSubscriptionId}_${toSeconds(addMonths(sub.currentPeriodEnd))}`;
    return {
      id: `evt_${invoice}_failed_${toSeconds(now)}`,
      type: "invoice.payment_failed",
      data: {
        subscription: sub.providerSubscriptionId,
        invoice,
        periodStart: toSeconds(sub.currentPeriodEnd),
        at: toSeconds(now),
      },
    };
  },
  /** A change of the subscription at `now`: only the fields changed (a stale snapshot restates nothing). */
  state(
    sub: TestSubscription,
    now: Date,
    change: Partial<Pick<TestSubscription, "tierKey" | "amountCents" | "cancelAtPeriodEnd">> & {
      deleted?: boolean;
    } = {},
  ): TestEventBody {
    return {
      id: `evt_${sub.providerSubscriptionId}_${change.deleted ? "deleted" : "updated"}_${now.getTime()}_${short()}`,
      type: change.deleted ? "subscription.deleted" : "subscription.updated",
      data: {
        subscription: sub.providerSubscriptionId,
        ...(change.deleted && { status: "canceled" as const }),
        periodEnd: toSeconds(sub.currentPeriodEnd),
        ...(change.cancelAtPeriodEnd !== undefined && { cancelAtPeriodEnd: change.cancelAtPeriodEnd }),
        ...(change.tierKey !== undefined && { tierKey: change.tierKey }),
        ...(change.amountCents !== undefined && { amountCents: change.amountCents }),
        at: toSeconds(now),
      },
    };
  },
  /** An upgrade's charge now: the price difference for the share of the period left (none if 0). */
  upgradeInvoice(sub: TestSubscription, toCents: number, now: Date): TestEventBody | undefined {
    const start = addMonths(sub.currentPeriodEnd, -1);
    const amountCents = proratedCents(sub.amountCents, toCents, { start, end: sub.currentPeriodEnd }, now);
    if (amountCents <= 0) return undefined;
    const invoice = `tin_${sub.providerSubscriptionId}_upgrade_${now.getTime()}_${short()}`;
    return paidInvoice(sub, invoice, amountCents, now, sub.currentPeriodEnd, "update");
  },
};

export function testProvider(): PaymentProvider {
  return {
    name: "test",
    async createCheckout() {
      const sessionId = `tps_${crypto.randomBytes(18).toString("base64url")}`;
      return { sessionId, url: `/pay/test/${sessionId}` };
    },
    async verifyWebhook(rawBody, headers) {
      verifyTestSignature(rawBody, headers.get(TEST_SIGNATURE_HEADER));
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody);
      } catch {
        throw new BadSignature("signed body is not JSON");
      }
      const body = testEventSchema.safeParse(parsed);
      if (!body.success) throw new BadSignature("signed body is not a test payment event");
      return readTestEvent(body.data);
    },
    async refund(request) {
      const event = `tev_refund_${crypto.randomBytes(12).toString("base64url")}`;
      return [
        signedDelivery({
          id: event,
          type: "charge.refunded",
          data: {
            payment: request.providerPaymentId,
            refundedCents: request.refundedTotalCents,
            currency: request.currency,
          },
        }),
      ];
    },
    async changeSubscription(sub, change, now = new Date()) {
      const current: TestSubscription = sub;
      if (change.action === "cancel" || change.action === "resume")
        return [
          signedDelivery(testBilling.state(current, now, { cancelAtPeriodEnd: change.action === "cancel" })),
        ];
      const updated = testBilling.state(current, now, {
        tierKey: change.tierKey,
        amountCents: change.amountCents,
      });
      const charge = change.prorate
        ? testBilling.upgradeInvoice(current, change.amountCents, now)
        : undefined;
      return [updated, ...(charge ? [charge] : [])].map(signedDelivery);
    },
  };
}
