import { AppError } from "~/lib/errors";

/**
 * What a payment provider offers the app. The implementations import this contract and the choice between
 * them lives in providers.server.ts, so no implementation imports the module that imports it.
 */

export type ProviderName = "test" | "stripe";

export type CheckoutRequest = {
  paymentId: number;
  mode: "payment" | "subscription";
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** The same key for a retried create call: the provider returns the first session instead of a second. */
  idempotencyKey: string;
  /** What the payer sees itemised (an order's lines); without it, one line named `description`. */
  lineItems?: CheckoutLineItem[];
  /** When the session must stop accepting payment (an order's reservation end). */
  expiresAt?: Date;
  /** A subscription's tier: carried in the provider's subscription metadata with the payment id. */
  tierKey?: string;
};

/** One itemised line of a checkout: prices from the database (never a request), in `currency`. */
export type CheckoutLineItem = { name: string; unitAmountCents: number; quantity: number };

export type CheckoutSession = { sessionId: string; url: string };

/** What a provider's event means for us, whatever the provider's own vocabulary. */
export type PaymentEffect =
  | {
      kind: "paid";
      sessionId: string;
      amountCents: number;
      currency: string;
      providerPaymentId?: string | null;
      subscriptionId?: string | null;
      /** A subscription checkout: its first invoice, and the end of the period it pays for when known. */
      invoiceId?: string | null;
      periodEnd?: Date | null;
    }
  | { kind: "failed"; sessionId: string }
  | { kind: "refunded"; providerPaymentId: string; refundedCents: number; currency: string }
  | { kind: "disputed"; providerPaymentId: string; currency: string }
  | SubscriptionEffect
  | InvoicePaidEffect
  | InvoiceFailedEffect
  | { kind: "ignored" };

/** A subscription's state at the provider at `at` (the provider's time): status, period, cancel, tier. */
export type SubscriptionEffect = {
  kind: "subscription";
  subscriptionId: string;
  /** The provider's status word (active, trialing, past_due, unpaid, canceled, incomplete_expired...). */
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd?: boolean;
  /** The tier the provider now bills (a change of tier); absent when the provider does not say. */
  tierKey?: string | null;
  amountCents?: number | null;
  /** When the provider produced this state; an event older than one already applied changes no state. */
  at?: Date;
};

/** A paid invoice of a subscription: the first one, a renewal, or an upgrade's prorated charge. */
export type InvoicePaidEffect = {
  kind: "invoice-paid";
  subscriptionId: string;
  invoiceId: string;
  /** Our payment id from the subscription's metadata: finds the checkout when this invoice comes first. */
  paymentRef: number | null;
  amountCents: number;
  currency: string;
  providerPaymentId: string | null;
  paidAt: Date;
  /** The period the invoice pays for (for an upgrade's charge, the rest of the current one). */
  periodEnd: Date | null;
  reason: "create" | "cycle" | "update" | "other";
};

/** A subscription's invoice could not be charged: the start of the period it was for (the renewal date). */
export type InvoiceFailedEffect = {
  kind: "invoice-failed";
  subscriptionId: string;
  invoiceId: string;
  periodStart: Date | null;
  at: Date;
};

export type ProviderEvent = { id: string; type: string; effect: PaymentEffect };

export class BadSignature extends AppError {
  override name = "BadSignature";
  constructor(message?: string) {
    super("bad-signature", 400, "error.body", message);
  }
}

/** What the supporter asks of their subscription from the account. */
export type SubscriptionChange =
  | { action: "cancel" }
  | { action: "resume" }
  | {
      action: "change-tier";
      tierKey: string;
      amountCents: number;
      currency: string;
      description: string;
      /** An upgrade is charged now (prorated); a downgrade is billed from the next renewal. */
      prorate: boolean;
    };

/** The subscription as we hold it, for a provider asked to change it. */
export type SubscriptionRef = {
  providerSubscriptionId: string;
  status: string;
  tierKey: string;
  amountCents: number;
  currency: string;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
};

/** The author's refund of a paid payment (ADR 43), in the payment's currency. */
export type RefundRequest = {
  /** The provider's id of the money movement (Stripe payment intent). */
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  /** What will have been refunded of the payment once this refund is made, this one included. */
  refundedTotalCents: number;
  /** The same key for a retried call: the provider makes one refund of it. */
  idempotencyKey: string;
};

/**
 * A signed event a provider sends to our webhook. Stripe posts its own over HTTPS (the list is empty); the
 * built-in test provider hands them back to be delivered through the same webhook path.
 */
export type SignedDelivery = { rawBody: string; headers: Headers };

export type PaymentProvider = {
  name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Asks the provider to change a subscription; what changes reaches us as its events. */
  changeSubscription(
    subscription: SubscriptionRef,
    change: SubscriptionChange,
    now?: Date,
  ): Promise<SignedDelivery[]>;
  /** Asks the provider to refund part or all of a payment; the refund reaches us as its event. */
  refund(request: RefundRequest): Promise<SignedDelivery[]>;
  /** Verifies the signature over the raw body and reads the event; throws BadSignature. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<ProviderEvent>;
};
