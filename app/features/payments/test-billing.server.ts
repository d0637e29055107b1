import { and, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { subscriptions, supportTiers } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { signedDelivery, type TestEventBody, testBilling } from "./test-provider.server";
import { deliverSigned } from "./webhook.server";

/**
 * The test provider's billing engine at work (ADR 27), like Stripe's test clocks: what its subscription
 * does at `now` (renew, fail the renewal, cancel at the period end, end), each as a signed event through
 * the webhook path. Only while the test provider is the configured one.
 */
export type TestBillingAction = "renew" | "fail" | "cancel" | "end";

/** A test-provider subscription of the reader, for its hosted test page (another reader's finds nothing). */
export async function getTestSubscription(providerSubscriptionId: string, userId: number) {
  if (getEnv().PAYMENT_PROVIDER !== "test") return undefined;
  const [sub] = await db()
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, "test"),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
        eq(subscriptions.userId, userId),
      ),
    );
  return sub;
}

async function priceOf(tierKey: string, fallback: number): Promise<number> {
  const [tier] = await db()
    .select({ amountCents: supportTiers.amountCents })
    .from(supportTiers)
    .where(eq(supportTiers.key, tierKey as "observer"));
  return tier?.amountCents ?? fallback;
}

export async function runTestBilling(
  sub: typeof subscriptions.$inferSelect,
  action: TestBillingAction,
  now = new Date(),
  meta?: RequestMeta,
): Promise<void> {
  if (sub.provider !== "test" || getEnv().PAYMENT_PROVIDER !== "test")
    throw new Error("not a test subscription");
  let event: TestEventBody;
  if (action === "renew" && !sub.cancelAtPeriodEnd)
    // The subscription's own price, as Stripe bills the price on the subscription: a tier's new price
    // applies to new subscriptions and changes, never to a running one. A downgrade waiting for the period
    // end is billed at its lower tier's price from this renewal on.
    event = testBilling.renewal(
      sub,
      now,
      sub.pendingTierKey ? await priceOf(sub.pendingTierKey, sub.amountCents) : sub.amountCents,
    );
  else if (action === "fail") event = testBilling.failedRenewal(sub, now);
  else if (action === "cancel") event = testBilling.state(sub, now, { cancelAtPeriodEnd: true });
  // Renewing a subscription cancelled at its period end ends it, as the provider does.
  else event = testBilling.state(sub, now, { deleted: true });
  await deliverSigned("test", [signedDelivery(event)], meta, now);
}
