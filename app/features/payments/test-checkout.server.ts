import { and, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { orders, payments } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { hashToken } from "~/lib/tokens.server";
import { returnPath } from "./checkout.server";
import { paymentSummary } from "./queries.server";
import { addMonths } from "./subscription-rules";
import { signedDelivery, type TestEventBody } from "./test-provider.server";
import { deliverSigned } from "./webhook.server";

/** The test provider's own view of a checkout session, for its hosted page. */
export async function getTestCheckout(sessionId: string) {
  if (getEnv().PAYMENT_PROVIDER !== "test") return undefined;
  const [payment] = await db()
    .select({
      ...paymentSummary,
      chapterNumber: payments.chapterNumber,
      orderId: orders.id,
      reservedUntil: orders.reservedUntil,
    })
    .from(payments)
    .leftJoin(orders, eq(orders.paymentId, payments.id))
    .where(and(eq(payments.provider, "test"), eq(payments.providerSessionId, sessionId)));
  if (!payment) return undefined;
  // An order's payment can be approved only while its units are reserved (ADR 25), as a real provider's
  // session expires with the reservation.
  const expired = payment.reservedUntil !== null && payment.reservedUntil.getTime() <= Date.now();
  return { ...payment, expired };
}

/**
 * The payer's answer on the test page, sent the way a provider would: a signed event through the webhook
 * path, which verifies and deduplicates it. The event id is fixed per session and answer, so pressing
 * Approve twice delivers one event twice.
 */
export async function answerTestCheckout(
  sessionId: string,
  decision: "approve" | "decline",
  meta?: RequestMeta,
  now = new Date(),
): Promise<{ redirectTo: string; expired?: true } | undefined> {
  const payment = await getTestCheckout(sessionId);
  if (!payment) return undefined;
  if (payment.expired && decision === "approve") return { redirectTo: returnPath(payment), expired: true };
  // One id per session and answer (a second click is a duplicate), without the session id itself, which
  // opens the checkout page and so stays out of the logs that print event ids.
  const key = hashToken(sessionId).slice(0, 24);
  const body: TestEventBody = {
    id: `evt_${key}_${decision}`,
    type: decision === "approve" ? "checkout.approved" : "checkout.declined",
    data: {
      session: sessionId,
      amountCents: payment.amountCents,
      currency: payment.currency,
      // A subscription starts at the provider with its first invoice, for a calendar month.
      ...(payment.kind === "subscription" && {
        subscription: `tsub_${key}`,
        invoice: `tin_tsub_${key}_first`,
        periodEnd: Math.floor(addMonths(now).getTime() / 1000),
      }),
    },
  };
  await deliverSigned("test", [signedDelivery(body)], meta, now);
  return { redirectTo: returnPath(payment) };
}
