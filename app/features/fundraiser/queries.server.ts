import { asc, count, desc, gte, lte, sum } from "drizzle-orm";
import { db } from "#db/client.server";
import { fundraiserGoals, supporters, supportTiers } from "#db/schema";

/**
 * The current fundraiser, computed from the records: the latest goal that has started, what supporters
 * have given since it started, and the most recent supporters (all of them when `recent` is undefined).
 */
export async function getFundraiser({ recent, now = new Date() }: { recent?: number; now?: Date } = {}) {
  const [goal] = await db()
    .select()
    .from(fundraiserGoals)
    .where(lte(fundraiserGoals.startsAt, now))
    .orderBy(desc(fundraiserGoals.startsAt))
    .limit(1);
  if (!goal) return undefined;
  const since = gte(supporters.supportedAt, goal.startsAt);
  const [totals] = await db()
    .select({ raised: sum(supporters.amountCents).mapWith(Number), count: count() })
    .from(supporters)
    .where(since);
  const listQuery = db()
    .select({ id: supporters.id, name: supporters.name, tier: supporters.tier, emoji: supporters.emoji })
    .from(supporters)
    .where(since)
    .orderBy(desc(supporters.supportedAt), desc(supporters.id));
  const list = recent === undefined ? await listQuery : await listQuery.limit(recent);
  const raisedCents = totals?.raised ?? 0;
  return {
    title: goal.title,
    descriptionMd: goal.descriptionMd,
    currency: goal.currency,
    targetCents: goal.targetCents,
    raisedCents,
    percent: Math.min(100, Math.floor((raisedCents / goal.targetCents) * 100)),
    supporterCount: totals?.count ?? 0,
    supporters: list,
  };
}

export async function listSupportTiers() {
  return db().select().from(supportTiers).orderBy(asc(supportTiers.sortOrder));
}
