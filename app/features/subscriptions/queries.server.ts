import { asc, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { subscriptions, supportTiers } from "#db/schema";
import {
  type SubscriptionPhase,
  subscriptionAccessEnd,
  subscriptionPhase,
} from "~/features/membership/subscription-access";
import { memoByRevision } from "~/features/site/revision.server";
import { getEnv } from "~/lib/env.server";

/** The reader's newest subscription, or none. */
export async function latestSubscription(userId: number) {
  const [sub] = await db()
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.startedAt), desc(subscriptions.id))
    .limit(1);
  return sub;
}

export type SubscriptionView = {
  id: string;
  tierKey: string;
  pendingTierKey: string | null;
  phase: SubscriptionPhase;
  amountCents: number;
  currency: string;
  /** The next renewal (active), the last day (ending), the end of the grace or of the access (ended). */
  periodEnd: string;
  accessEnd: string | null;
  /** The test provider's own page for this subscription (only while the test provider runs). */
  testPage: string | null;
};

export type TierOption = { key: string; amountCents: number; currency: string };

/** The tiers one can subscribe to, kept until the content changes (support_tiers moves the revision). */
export const listTierOptions = memoByRevision(
  async (): Promise<TierOption[]> =>
    await db()
      .select({
        key: supportTiers.key,
        amountCents: supportTiers.amountCents,
        currency: supportTiers.currency,
      })
      .from(supportTiers)
      .orderBy(asc(supportTiers.sortOrder)),
);

/** What the account's subscription panel shows: the reader's newest subscription (or none) and the tiers. */
export async function getSubscriptionPanel(
  userId: number,
  now = new Date(),
): Promise<{ subscription: SubscriptionView | null; tiers: TierOption[] }> {
  const [sub, tiers] = await Promise.all([latestSubscription(userId), listTierOptions()]);
  return { subscription: sub ? subscriptionView(sub, now) : null, tiers };
}

/** What the panel needs of a subscription row. */
export type SubscriptionRow = Pick<
  typeof subscriptions.$inferSelect,
  | "provider"
  | "providerSubscriptionId"
  | "tierKey"
  | "pendingTierKey"
  | "status"
  | "amountCents"
  | "currency"
  | "currentPeriodEnd"
  | "cancelAtPeriodEnd"
  | "graceUntil"
  | "endedAt"
>;

export function subscriptionView(sub: SubscriptionRow, now: Date): SubscriptionView {
  const accessEnd = subscriptionAccessEnd(sub);
  return {
    id: sub.providerSubscriptionId,
    tierKey: sub.tierKey,
    pendingTierKey: sub.pendingTierKey,
    phase: subscriptionPhase(sub, now),
    amountCents: sub.amountCents,
    currency: sub.currency,
    periodEnd: sub.currentPeriodEnd.toISOString(),
    accessEnd: accessEnd?.toISOString() ?? null,
    testPage:
      sub.provider === "test" && getEnv().PAYMENT_PROVIDER === "test"
        ? `/pay/test/subscription/${sub.providerSubscriptionId}`
        : null,
  };
}
