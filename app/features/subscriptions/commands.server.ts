import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { supportTiers, type TierKey } from "#db/schema";
import { grantsTier } from "~/features/membership/subscription-access";
import type { SubscriptionChange } from "~/features/payments/provider.server";
import { getProvider } from "~/features/payments/providers.server";
import { tierChange } from "~/features/payments/subscription-rules";
import { deliverSigned } from "~/features/payments/webhook.server";
import type { RequestMeta } from "~/lib/context";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { latestSubscription } from "./queries.server";

/**
 * The supporter's requests about their subscription (ADR 27). Each asks the provider; what changes here
 * changes only through the provider's signed events (webhook.server.ts), as a payment does.
 */
export class SubscriptionError extends AppError {
  override name = "SubscriptionError";
  constructor(code: string, status: number, messageKey: string) {
    super(code, status, messageKey);
  }
}

/** The subscription that still grants its tier and has not been cancelled by the provider. */
async function currentSubscription(userId: number, now: Date) {
  const sub = await latestSubscription(userId);
  if (!sub || !grantsTier(sub, now) || sub.status === "canceled")
    throw new SubscriptionError("no-subscription", 404, "subscriptions.errors.none");
  return sub;
}

/** Asks the subscription's provider for a change; what changes reaches us as the provider's events. */
export async function ask(
  sub: NonNullable<Awaited<ReturnType<typeof latestSubscription>>>,
  change: SubscriptionChange,
  meta: RequestMeta | undefined,
  now: Date,
) {
  const provider = getProvider();
  if (provider.name !== sub.provider)
    throw new SubscriptionError("other-provider", 409, "subscriptions.errors.unavailable");
  let deliveries: Awaited<ReturnType<typeof provider.changeSubscription>>;
  try {
    deliveries = await provider.changeSubscription(sub, change, now);
  } catch (error) {
    logger.error({ subscriptionId: sub.id, err: (error as Error).message }, "subscription change refused");
    throw new SubscriptionError("provider-unavailable", 503, "subscriptions.errors.unavailable");
  }
  await deliverSigned(provider.name, deliveries, meta, now);
  logger.info({ subscriptionId: sub.id, userId: sub.userId, action: change.action }, "subscription change");
}

/** Upgrade now (charged for the rest of the period), downgrade from the next renewal. */
export async function changeTier(
  userId: number,
  tierKey: TierKey,
  meta?: RequestMeta,
  now = new Date(),
): Promise<"upgrade" | "downgrade" | "same"> {
  const sub = await currentSubscription(userId, now);
  if (sub.status === "past_due") throw new SubscriptionError("past-due", 409, "subscriptions.errors.pastDue");
  const kind = tierChange(sub.tierKey, tierKey);
  // The same tier again only means something while a downgrade waits: it keeps the current tier.
  if (kind === "same" && !sub.pendingTierKey)
    throw new SubscriptionError("same-tier", 409, "subscriptions.errors.sameTier");
  if (kind !== "upgrade" && sub.pendingTierKey === tierKey) return kind;
  const [tier] = await db().select().from(supportTiers).where(eq(supportTiers.key, tierKey));
  if (!tier) throw new SubscriptionError("unknown-tier", 400, "subscriptions.errors.badRequest");
  await ask(
    sub,
    {
      action: "change-tier",
      tierKey,
      amountCents: tier.amountCents,
      currency: tier.currency,
      description: `${tier.name} (monthly)`,
      prorate: kind === "upgrade",
    },
    meta,
    now,
  );
  return kind;
}

/** Cancel at the period end: the tier lasts to the end of what was paid. */
export async function cancelSubscription(userId: number, meta?: RequestMeta, now = new Date()) {
  const sub = await currentSubscription(userId, now);
  if (sub.cancelAtPeriodEnd) return;
  await ask(sub, { action: "cancel" }, meta, now);
}

/** Keep a subscription cancelled at its period end after all. */
export async function resumeSubscription(userId: number, meta?: RequestMeta, now = new Date()) {
  const sub = await currentSubscription(userId, now);
  if (!sub.cancelAtPeriodEnd) return;
  await ask(sub, { action: "resume" }, meta, now);
}
