import { count, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { subscriptions } from "#db/schema";

/**
 * When a subscription stops granting its tier, in SQL: the same rule as subscriptionAccessEnd
 * (membership/subscription-access.ts), so supporters are counted in the database, never row by row.
 */
export const accessEnd = sql`case
  when ${subscriptions.status} = 'canceled' or ${subscriptions.endedAt} is not null
    then least(coalesce(${subscriptions.endedAt}, ${subscriptions.currentPeriodEnd}), ${subscriptions.currentPeriodEnd})
  when ${subscriptions.status} = 'past_due'
    then coalesce(${subscriptions.graceUntil}, ${subscriptions.currentPeriodEnd} + interval '3 days')
  when ${subscriptions.status} in ('active', 'trialing')
    then case when ${subscriptions.cancelAtPeriodEnd} then ${subscriptions.currentPeriodEnd}
      else ${subscriptions.currentPeriodEnd} + interval '3 days' end
end`;

/** Support subscriptions that grant their tier at `now`, by tier. */
export function activeSupportersByTier(now: Date) {
  return db()
    .select({ tier: subscriptions.tierKey, count: count() })
    .from(subscriptions)
    .where(sql`${accessEnd} > ${now}`)
    .groupBy(subscriptions.tierKey);
}
