import { and, desc, eq, lt, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { subscriptions, type TierKey, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { grantsTier, subscriptionPhase } from "~/features/membership/subscription-access";
import { accessEnd } from "~/features/membership/subscription-access.server";
import { MONEY_PAGE_SIZE } from "~/features/orders/money.server";
import type { RequestMeta } from "~/lib/context";
import { ask, SubscriptionError } from "./commands.server";

/**
 * Support subscriptions, newest first (ADR 43): by tier, and only those granting their tier now when
 * `current` is set (the overview's supporters), a page at a time.
 */
export async function listSubscriptionsForAdmin(
  filter: { tier?: TierKey; current?: boolean; before?: number },
  now = new Date(),
) {
  const rows = await db()
    .select({
      id: subscriptions.id,
      tierKey: subscriptions.tierKey,
      status: subscriptions.status,
      amountCents: subscriptions.amountCents,
      currency: subscriptions.currency,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      graceUntil: subscriptions.graceUntil,
      endedAt: subscriptions.endedAt,
      startedAt: subscriptions.startedAt,
      provider: subscriptions.provider,
      userId: subscriptions.userId,
      subscriber: users.username,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(
      and(
        filter.tier ? eq(subscriptions.tierKey, filter.tier) : undefined,
        filter.current ? sql`${accessEnd} > ${now}` : undefined,
        filter.before ? lt(subscriptions.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(subscriptions.id))
    .limit(MONEY_PAGE_SIZE + 1);
  return {
    subscriptions: rows.slice(0, MONEY_PAGE_SIZE).map((row) => ({
      id: row.id,
      tierKey: row.tierKey,
      phase: subscriptionPhase(row, now),
      cancellable: grantsTier(row, now) && row.status !== "canceled" && !row.cancelAtPeriodEnd,
      amountCents: row.amountCents,
      currency: row.currency,
      periodEnd: row.currentPeriodEnd.toISOString(),
      startedAt: row.startedAt.toISOString(),
      userId: row.userId,
      subscriber: row.subscriber,
    })),
    next: rows.length > MONEY_PAGE_SIZE ? rows[MONEY_PAGE_SIZE - 1]?.id : undefined,
  };
}

export type CancelOutcome = { ok: true } | { ok: false; reason: "notFound" | "status" | "unavailable" };

/**
 * Cancels a subscription at the end of its paid period, as the supporter can from their account: asked of
 * the provider, whose event then marks it (the tier lasts to the period end). Audited.
 */
export async function cancelSubscriptionForAuthor(
  subscriptionId: number,
  note: string,
  actor: Actor & { via: "admin" },
  meta?: RequestMeta,
  now = new Date(),
): Promise<CancelOutcome> {
  const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!sub) return { ok: false, reason: "notFound" };
  if (!grantsTier(sub, now) || sub.status === "canceled" || sub.cancelAtPeriodEnd)
    return { ok: false, reason: "status" };
  try {
    await ask(sub, { action: "cancel" }, meta, now);
  } catch (error) {
    if (error instanceof SubscriptionError) return { ok: false, reason: "unavailable" };
    throw error;
  }
  await recordAudit(db(), actor, {
    action: "subscription.cancel",
    subjectType: "subscription",
    subjectId: subscriptionId,
    before: { status: sub.status, cancelAtPeriodEnd: false },
    after: { cancelAtPeriodEnd: true, note },
  });
  return { ok: true };
}
