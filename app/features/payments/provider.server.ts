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
    }
  | { kind: "failed"; sessionId: string }
  | { kind: "refunded"; providerPaymentId: string; refundedCents: number; currency: string }
  | { kind: "disputed"; providerPaymentId: string; currency: string }
  | { kind: "subscription"; subscriptionId: string; status: string; currentPeriodEnd: Date | null }
  | { kind: "ignored" };

export type ProviderEvent = { id: string; type: string; effect: PaymentEffect };

export class BadSignature extends AppError {
  override name = "BadSignature";
  constructor(message?: string) {
    super("bad-signature", 400, "error.body", message);
  }
}

export type PaymentProvider = {
  name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the signature over the raw body and reads the event; throws BadSignature. */
  verifyWebhook(rawBody: string, headers: Headers): Promise<ProviderEvent>;
};
