import { and, asc, count, desc, eq, gte, inArray, isNull, lt, ne, sql, sum } from "drizzle-orm";
import { db } from "#db/client.server";
import { fundraiserGoals, payments, supporters, supportTiers, users, type WallTier } from "#db/schema";
import { anyReaderGeneration } from "~/features/auth/session.server";
import { memoByRevision } from "~/features/site/revision.server";
import { getEnv } from "~/lib/env.server";
import { goalPeriod, progressOf } from "./period";

/**
 * The fundraiser's figures, one module for the home page and /fundraiser so both show the same. Goals are
 * content (kept per content revision); progress is money received in the goal's period: imported history
 * (supporters without a reader) and support payments (gifts, subscription invoices) paid or partly refunded,
 * less what was refunded, in the goal's currency. Two indexed sums per goal (supporters_supported_at,
 * payments_paid_at); the pages showing them are kept by the page cache, so a render is rare.
 */

const allGoals = memoByRevision(() =>
  db().select().from(fundraiserGoals).orderBy(desc(fundraiserGoals.startsAt), desc(fundraiserGoals.id)),
);

type Goal = typeof fundraiserGoals.$inferSelect;

/** The payments that count toward goals: confirmed support money. A disputed or failed one does not. */
const countedKinds = ["subscription", "gift"] as const;
const countedStatuses = ["paid", "refunded"] as const;

export async function raisedBetween(currency: string, start: Date, end: Date | null): Promise<number> {
  const [imported, received] = await Promise.all([
    db()
      .select({ total: sum(supporters.amountCents).mapWith(Number) })
      .from(supporters)
      .where(
        and(
          isNull(supporters.userId),
          eq(supporters.currency, currency),
          gte(supporters.supportedAt, start),
          end ? lt(supporters.supportedAt, end) : undefined,
        ),
      ),
    db()
      .select({
        total: sum(sql`${payments.amountCents} - ${payments.refundedCents}`).mapWith(Number),
      })
      .from(payments)
      .where(
        and(
          inArray(payments.kind, countedKinds),
          inArray(payments.status, countedStatuses),
          eq(payments.currency, currency),
          gte(payments.paidAt, start),
          end ? lt(payments.paidAt, end) : undefined,
        ),
      ),
  ]);
  return (imported[0]?.total ?? 0) + (received[0]?.total ?? 0);
}

export type GoalFigures = {
  id: number;
  title: string;
  period: Goal["period"];
  descriptionMd: string;
  currency: string;
  targetCents: number;
  raisedCents: number;
  /** Whole percent reached: may pass 100. */
  percent: number;
  /** The bar's width: never over 100. */
  barPercent: number;
  /** The counted period, ISO (a monthly goal: this month in the site's time zone). */
  periodStart: string;
  periodEnd: string | null;
};

async function figures(goal: Goal, now: Date): Promise<GoalFigures> {
  const { start, end } = goalPeriod(goal, now, getEnv().SITE_TIME_ZONE);
  const raisedCents = await raisedBetween(goal.currency, start, end);
  return {
    id: goal.id,
    title: goal.title,
    period: goal.period,
    descriptionMd: goal.descriptionMd,
    currency: goal.currency,
    targetCents: goal.targetCents,
    raisedCents,
    ...progressOf(raisedCents, goal.targetCents),
    periodStart: start.toISOString(),
    periodEnd: end?.toISOString() ?? null,
  };
}

/** The goal of a period shown now: the latest started one that has not ended (a campaign: or the last one). */
function current(goals: Goal[], period: Goal["period"], now: Date): Goal | undefined {
  const started = goals.filter((goal) => goal.period === period && goal.startsAt <= now);
  return (
    started.find((goal) => !goal.endsAt || goal.endsAt > now) ??
    (period === "campaign" ? started[0] : undefined)
  );
}

/** The campaign (home, /fundraiser) and the monthly goal (/fundraiser), with their progress now. */
export async function getGoals(now = new Date()): Promise<{ campaign?: GoalFigures; monthly?: GoalFigures }> {
  const goals = await allGoals();
  const campaign = current(goals, "campaign", now);
  const monthly = current(goals, "monthly", now);
  const [campaignFigures, monthlyFigures] = await Promise.all([
    campaign && figures(campaign, now),
    monthly && figures(monthly, now),
  ]);
  return { campaign: campaignFigures, monthly: monthlyFigures };
}

/** The support tiers: content, kept per content revision. */
export const listSupportTiers = memoByRevision(() =>
  db().select().from(supportTiers).orderBy(asc(supportTiers.sortOrder)),
);

/** Listed on the wall: every entry but those whose supporter chose not to be listed. */
const listed = ne(supporters.display, "hidden");

/** A wall entry as a page may show it: an anonymous one carries no name at all, not even in route data. */
export type WallEntry = {
  id: number;
  /** The name shown; null for "Anonymous". */
  name: string | null;
  tier: WallTier;
  emoji: string;
  message: string;
  supportedAt: string;
};

/** Listed supporters: imported history and readers who did not choose "not listed". */
export async function countSupporters(tier?: WallTier): Promise<number> {
  const [row] = await db()
    .select({ count: count() })
    .from(supporters)
    .where(and(listed, tier ? eq(supporters.tier, tier) : undefined));
  return row?.count ?? 0;
}

/** Listed supporters, newest first: a reader's entry shows their current username, display name or nothing. */
export async function listSupporters({
  limit,
  offset = 0,
  tier,
}: {
  limit: number;
  offset?: number;
  tier?: WallTier;
}): Promise<WallEntry[]> {
  const rows = await db()
    .select({
      id: supporters.id,
      display: supporters.display,
      name: supporters.name,
      username: users.username,
      tier: supporters.tier,
      emoji: supporters.emoji,
      message: supporters.message,
      supportedAt: supporters.supportedAt,
    })
    .from(supporters)
    .leftJoin(users, eq(users.id, supporters.userId))
    .where(and(listed, tier ? eq(supporters.tier, tier) : undefined))
    .orderBy(desc(supporters.supportedAt), desc(supporters.id))
    .limit(limit)
    .offset(offset);
  return rows.map((row) => ({
    id: row.id,
    name: shownName(row),
    tier: row.tier,
    emoji: row.emoji,
    message: row.message,
    supportedAt: row.supportedAt.toISOString(),
  }));
}

/** The one place a wall entry's name is decided (docs/security-model.md: anonymity). */
export function shownName(row: { display: string; name: string; username: string | null }): string | null {
  if (row.display === "anonymous" || row.display === "hidden") return null;
  if (row.display === "username") return row.username ?? null;
  return row.name || null;
}

/** The newest supporters /fundraiser shows. */
export const RECENT_SUPPORTERS = 12;

/**
 * A figure read from all readers' records, kept (with `memoByRevision`) until any reader's records change (the
 * reader events, ADR 53) or the minute ends: /fundraiser's and /credits' figures.
 */
export function untilReaderEventOrMinute(): string | undefined {
  const generation = anyReaderGeneration();
  return generation === undefined ? undefined : `${generation} ${Math.floor(Date.now() / 60_000)}`;
}

/**
 * What every reader's /fundraiser shows alike (the goals with the money raised, the newest supporters and
 * their count), read once for all of them (ADR 71): kept until the content changes, any reader's records change
 * (a payment, a supporter: the reader events, ADR 53) or the minute ends (a goal's period may have), as the
 * visitors' kept page is. A signed-in reader's render reads only their own subscription.
 */
export const fundraiserFigures = memoByRevision(async () => {
  const [goals, recent, supporterCount] = await Promise.all([
    getGoals(),
    listSupporters({ limit: RECENT_SUPPORTERS }),
    countSupporters(),
  ]);
  return { goals, recent, supporterCount };
}, untilReaderEventOrMinute);
