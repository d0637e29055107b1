import type { RequestMeta } from "~/lib/context";
import { logger } from "~/lib/logger.server";
import { PaymentMismatch, processEvent } from "./fulfil.server";
import { BadSignature, getProvider } from "./provider.server";

export type WebhookAnswer = {
  status: number;
  body: { received: boolean; duplicate?: boolean; error?: string };
};

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
  try {
    const { outcome } = await processEvent(provider.name, event, new Date(), meta);
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
