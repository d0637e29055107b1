import Stripe from "stripe";
import { getEnv } from "~/lib/env.server";
import {
  BadSignature,
  type PaymentEffect,
  type PaymentProvider,
  type ProviderEvent,
} from "./provider.server";

/** Stripe's own tolerance: a signed event older than five minutes is refused (replays). */
const TOLERANCE_SECONDS = 300;

let client: Stripe | undefined;

/** One Stripe client per process; STRIPE_API_BASE points it at a local server in the tests. */
function stripe(): Stripe {
  if (client) return client;
  const env = getEnv();
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined;
  client = new Stripe(env.STRIPE_SECRET_KEY ?? "", {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === "https:" ? 443 : 80),
      protocol: base.protocol === "https:" ? "https" : "http",
    }),
  });
  return client;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** Loosely typed: invoice and subscription fields moved between Stripe API versions; both shapes are read. */
type Loose = Record<string, unknown> & { [key: string]: unknown };
const obj = (value: unknown): Loose => (typeof value === "object" && value !== null ? (value as Loose) : {});
const str = (value: unknown) => (typeof value === "string" ? value : null);
const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
const date = (value: unknown) => {
  const seconds = num(value);
  return seconds === null ? null : new Date(seconds * 1000);
};

/** An invoice's subscription and our payment id (subscription_data.metadata), in either API shape. */
function invoiceSubscription(invoice: Loose): { subscriptionId: string | null; paymentRef: number | null } {
  const details = obj(obj(invoice.parent).subscription_details);
  const subscriptionId =
    idOf(invoice.subscription as string | { id: string } | null) ??
    idOf(details.subscription as string | null);
  const metadata = obj(details.metadata ?? obj(invoice.subscription_details).metadata);
  const ref = Number(str(metadata.paymentId));
  return { subscriptionId, paymentRef: Number.isInteger(ref) && ref > 0 ? ref : null };
}

/** The money movement of an invoice (a refund names it): payment_intent, or its first payment's. */
function invoicePaymentIntent(invoice: Loose): string | null {
  const direct = idOf(invoice.payment_intent as string | null);
  if (direct) return direct;
  const first = obj((obj(invoice.payments).data as unknown[] | undefined)?.[0]);
  return idOf(obj(first.payment).payment_intent as string | null);
}

function invoiceLinePeriod(invoice: Loose): Loose {
  return obj(obj((obj(invoice.lines).data as unknown[] | undefined)?.[0]).period);
}

const BILLING_REASONS = {
  subscription_create: "create",
  subscription_cycle: "cycle",
  subscription_update: "update",
} as const;

function readInvoiceEvent(event: Stripe.Event): PaymentEffect {
  const invoice = obj(event.data.object);
  const { subscriptionId, paymentRef } = invoiceSubscription(invoice);
  const invoiceId = str(invoice.id);
  if (!subscriptionId || !invoiceId) return { kind: "ignored" };
  if (event.type === "invoice.payment_failed")
    return {
      kind: "invoice-failed",
      subscriptionId,
      invoiceId,
      periodStart: date(invoiceLinePeriod(invoice).start),
      at: new Date(event.created * 1000),
    };
  const amount = num(invoice.amount_paid);
  const currency = str(invoice.currency);
  // A zero invoice (a trial, a downgrade's credit) is no money received.
  if (!amount || amount <= 0 || !currency) return { kind: "ignored" };
  return {
    kind: "invoice-paid",
    subscriptionId,
    invoiceId,
    paymentRef,
    amountCents: amount,
    currency: currency.toUpperCase(),
    providerPaymentId: invoicePaymentIntent(invoice),
    paidAt: date(obj(invoice.status_transitions).paid_at) ?? new Date(event.created * 1000),
    periodEnd: date(invoiceLinePeriod(invoice).end),
    reason: BILLING_REASONS[str(invoice.billing_reason) as keyof typeof BILLING_REASONS] ?? "other",
  };
}

/** Stripe's events in our vocabulary; everything we do not act on is "ignored" (and still recorded). */
export function readStripeEvent(event: Stripe.Event): ProviderEvent {
  let effect: PaymentEffect = { kind: "ignored" };
  switch (event.type) {
    case "invoice.paid":
    case "invoice.payment_succeeded":
    case "invoice.payment_failed":
      effect = readInvoiceEvent(event);
      break;
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      // A completed session with a delayed method (bank debit) is not paid yet: its async event decides.
      if (session.payment_status === "paid" && session.amount_total !== null && session.currency) {
        effect = {
          kind: "paid",
          sessionId: session.id,
          amountCents: session.amount_total,
          currency: session.currency.toUpperCase(),
          providerPaymentId: idOf(session.payment_intent) ?? idOf(session.invoice),
          subscriptionId: idOf(session.subscription),
          invoiceId: idOf(session.invoice),
        };
      }
      break;
    }
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      effect = { kind: "failed", sessionId: event.data.object.id };
      break;
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      if (paymentIntent)
        effect = {
          kind: "refunded",
          providerPaymentId: paymentIntent,
          refundedCents: charge.amount_refunded,
          currency: charge.currency.toUpperCase(),
        };
      break;
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (paymentIntent)
        effect = {
          kind: "disputed",
          providerPaymentId: paymentIntent,
          currency: dispute.currency.toUpperCase(),
        };
      break;
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = obj(event.data.object);
      const item = obj((obj(subscription.items).data as unknown[] | undefined)?.[0]);
      const id = str(subscription.id);
      if (!id) break;
      effect = {
        kind: "subscription",
        subscriptionId: id,
        status:
          event.type === "customer.subscription.deleted" ? "canceled" : (str(subscription.status) ?? ""),
        currentPeriodEnd: date(item.current_period_end ?? subscription.current_period_end),
        cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
        tierKey: str(obj(subscription.metadata).tierKey),
        amountCents: num(obj(item.price).unit_amount),
        at: new Date(event.created * 1000),
      };
      break;
    }
  }
  return { id: event.id, type: event.type, effect };
}

/** Stripe accepts a session expiry 30 minutes to 24 hours ahead: a shorter reservation is clamped up to 30 minutes. */
const MIN_EXPIRY_SECONDS = 30 * 60 + 60;
const MAX_EXPIRY_SECONDS = 24 * 60 * 60 - 60;

export function stripeExpiry(expiresAt: Date, now = Date.now()): number {
  const seconds = Math.floor(now / 1000);
  const wanted = Math.floor(expiresAt.getTime() / 1000);
  return Math.min(Math.max(wanted, seconds + MIN_EXPIRY_SECONDS), seconds + MAX_EXPIRY_SECONDS);
}

export function stripeProvider(): PaymentProvider {
  return {
    name: "stripe",
    async createCheckout(request) {
      const session = await stripe().checkout.sessions.create(
        {
          mode: request.mode,
          line_items: (
            request.lineItems ?? [
              { name: request.description, unitAmountCents: request.amountCents, quantity: 1 },
            ]
          ).map((line) => ({
            quantity: line.quantity,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: line.unitAmountCents,
              product_data: { name: line.name },
              ...(request.mode === "subscription" && { recurring: { interval: "month" as const } }),
            },
          })),
          ...(request.expiresAt && { expires_at: stripeExpiry(request.expiresAt) }),
          customer_email: request.customerEmail,
          client_reference_id: String(request.paymentId),
          metadata: { paymentId: String(request.paymentId) },
          // Every invoice of the subscription carries our payment id and tier (its first may come first).
          ...(request.mode === "subscription" && {
            subscription_data: {
              metadata: { paymentId: String(request.paymentId), tierKey: request.tierKey ?? "" },
            },
          }),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} has no URL`);
      return { sessionId: session.id, url: session.url };
    },
    async refund(request) {
      // Stripe refunds the charge behind the payment intent and tells us with charge.refunded.
      await stripe().refunds.create(
        { payment_intent: request.providerPaymentId, amount: request.amountCents },
        { idempotencyKey: request.idempotencyKey },
      );
      return [];
    },
    async changeSubscription(sub, change) {
      const id = sub.providerSubscriptionId;
      if (change.action === "cancel" || change.action === "resume") {
        await stripe().subscriptions.update(id, { cancel_at_period_end: change.action === "cancel" });
        return [];
      }
      // A new price on the same product: an upgrade is invoiced now for the rest of the period (Stripe's
      // proration); a downgrade is not prorated, so the next renewal bills the lower price.
      const current = await stripe().subscriptions.retrieve(id);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${id} has no item`);
      await stripe().subscriptions.update(
        id,
        {
          items: [
            {
              id: item.id,
              price_data: {
                currency: change.currency.toLowerCase(),
                product: idOf(item.price.product as string | { id: string }) ?? "",
                unit_amount: change.amountCents,
                recurring: { interval: "month" },
              },
            },
          ],
          metadata: { tierKey: change.tierKey },
          proration_behavior: change.prorate ? "always_invoice" : "none",
        },
        { idempotencyKey: `subscription:${id}:tier:${change.tierKey}:${sub.currentPeriodEnd.getTime()}` },
      );
      return [];
    },
    async verifyWebhook(rawBody, headers) {
      const signature = headers.get("stripe-signature");
      if (!signature) throw new BadSignature("no Stripe-Signature header");
      try {
        const event = stripe().webhooks.constructEvent(
          rawBody,
          signature,
          getEnv().STRIPE_WEBHOOK_SECRET ?? "",
          TOLERANCE_SECONDS,
        );
        return readStripeEvent(event);
      } catch (error) {
        // StripeSignatureVerificationError, or a signed body that is not an event: either way, refused.
        throw new BadSignature((error as Error).message);
      }
    },
  };
}

/** For tests: forget the client so a changed environment is read again. */
export function resetStripeClient(): void {
  client = undefined;
}
