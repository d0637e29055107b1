import { sendOrderConfirmation } from "~/features/order-fulfilment/confirmation.server";
import type { RequestMeta } from "~/lib/context";
import { logger } from "~/lib/logger.server";
import { isCleanText } from "~/lib/parse";
import { PaymentMismatch, processEvent } from "./fulfil.server";
import { BadSignature, type ProviderName, type SignedDelivery } from "./provider.server";
import { getProvider } from "./providers.server";
import { sendPaymentReceipt, sendRefundMail, sendRenewalFailed } from "./receipt.server";

export type WebhookAnswer = {
  status: number;
  body: { received: boolean; duplicate?: boolean; error?: string };
};

/**
 * Every text in a signed event is stored or looked up (ids, types, currencies): one the database would
 * refuse (a NUL byte) or an absurd length is a bad event, not a 500.
 */
function hasCleanText(value: unknown): boolean {
  if (typeof value === "string") return isCleanText(value, 1000);
  if (typeof value === "object" && value !== null && !(value instanceof Date))
    return Object.values(value).every(hasCleanText);
  return true;
}

/**
 * The one way a payment's result reaches the app, for every provider: verify the signature over the raw
 * body, then process the event once (fulfil.server.ts). A bad signature or a confirmation that does not
 * match the stored payment is a 400 and changes nothing.
 */
export async function receiveWebhook(
  providerName: string,
  rawBody: string,
  headers: Headers,
  meta?: RequestMeta,
  now = new Date(),
): Promise<WebhookAnswer> {
  const requestId = meta?.requestId;
  const provider = getProvider();
  if (providerName !== provider.name)
    return { status: 404, body: { received: false, error: "unknown-provider" } };
  let event: Awaited<ReturnType<typeof provider.verifyWebhook>>;
  try {
    event = await provider.verifyWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof BadSignature) {
      logger.warn(
        { requestId, provider: provider.name, reason: error.message.split("\n")[0] },
        "bad webhook signature",
      );
      return { status: 400, body: { received: false, error: "bad-signature" } };
    }
    throw error;
  }
  if (!hasCleanText(event)) {
    logger.warn({ requestId, provider: provider.name }, "webhook event with unusable text");
    return { status: 400, body: { received: false, error: "bad-event" } };
  }
  try {
    const { outcome, paymentId, subscriptionId, refund } = await processEvent(
      provider.name,
      event,
      now,
      meta,
    );
    // After the commit: an order's confirmation e-mail (a payment without an order sends nothing), a
    // support payment's receipt (a subscription's invoice or a gift), a coin pack's, a failed renewal's notice, a
    // refund's.
    if ((outcome === "fulfilled" || outcome === "invoice") && paymentId !== undefined) {
      await sendOrderConfirmation(paymentId);
      await sendPaymentReceipt(paymentId);
    }
    if (outcome === "renewal-failed" && subscriptionId !== undefined) await sendRenewalFailed(subscriptionId);
    // A refund: its e-mail, with what it did to the membership days and the tier (ADR 57).
    if (refund) await sendRefundMail(refund);
    return { status: 200, body: { received: true, duplicate: outcome === "duplicate" } };
  } catch (error) {
    if (error instanceof PaymentMismatch) {
      logger.error(
        { requestId, provider: provider.name, eventId: event.id, reason: error.message },
        "payment mismatch",
      );
      return { status: 400, body: { received: false, error: "mismatch" } };
    }
    throw error;
  }
}

/**
 * Events a provider handed back instead of posting them (the built-in test provider): through the same
 * webhook path, in order; one refused is an error, as a provider's failed delivery would be.
 */
export async function deliverSigned(
  providerName: ProviderName,
  deliveries: SignedDelivery[],
  meta?: RequestMeta,
  now = new Date(),
): Promise<void> {
  for (const delivery of deliveries) {
    const answer = await receiveWebhook(providerName, delivery.rawBody, delivery.headers, meta, now);
    if (answer.status !== 200) throw new Error(`${providerName} event refused: ${answer.body.error}`);
  }
}
