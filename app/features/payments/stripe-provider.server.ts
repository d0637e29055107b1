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

/** Stripe's events in our vocabulary; everything we do not act on is "ignored" (and still recorded). */
export function readStripeEvent(event: Stripe.Event): ProviderEvent {
  let effect: PaymentEffect = { kind: "ignored" };
  switch (event.type) {
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
      const subscription = event.data.object;
      const periodEnd = subscription.items.data[0]?.current_period_end;
      effect = {
        kind: "subscription",
        subscriptionId: subscription.id,
        status: subscription.status,
        currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
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
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} has no URL`);
      return { sessionId: session.id, url: session.url };
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
