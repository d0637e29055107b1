import { and, count, eq, gte, inArray, lt, type SQL, sql, sum } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  orders,
  type PaymentKind,
  paymentKinds,
  payments,
  readingDays,
  readingDayTotals,
  subscriptions,
  users,
} from "#db/schema";
import { monthOf } from "~/features/fundraiser/period";
import { getGoals } from "~/features/fundraiser/queries.server";
import { getEnv } from "~/lib/env.server";
import { addDays, dayNumber, localDay } from "~/lib/local-time";
import { adminOverview } from "./chapters.server";

/** The reading chart's days, today included. */
export const CHART_DAYS = 30;
/** The reader and account windows the overview counts, in days (today included). */
const WINDOWS = [1, 7, 30] as const;

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

/** Money kept (paid less refunded) by source and currency, for payments confirmed in [start, end). */
function revenueBetween(start: Date, end: Date) {
  return db()
    .select({
      kind: payments.kind,
      currency: payments.currency,
      cents: sum(sql`${payments.amountCents} - ${payments.refundedCents}`).mapWith(Number),
    })
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["paid", "refunded"]),
        gte(payments.paidAt, start),
        lt(payments.paidAt, end),
      ),
    )
    .groupBy(payments.kind, payments.currency);
}

/**
 * Days a reader may still write to: a reader's day is their own zone's, up to 26 hours from the site's, so
 * the site's today and the two days before it are counted live; older days are kept in reading_day_totals.
 */
const LIVE_DAYS = 3;

/**
 * Readers and reading time of each day from `first` to `today`: days older than the live ones from their kept
 * totals (a day not kept yet is counted once and kept), the live ones from the readers' days (ADR 43).
 */
async function readingByDay(first: string, today: string) {
  const days = Array.from({ length: dayNumber(today) - dayNumber(first) + 1 }, (_, index) =>
    addDays(first, index),
  );
  const closed = days.slice(0, Math.max(0, days.length - LIVE_DAYS));
  const totals = (where: SQL | undefined) =>
    db()
      .select({
        day: readingDays.day,
        readers: count(),
        seconds: sum(readingDays.seconds).mapWith(Number),
      })
      .from(readingDays)
      .where(and(where, sql`${readingDays.seconds} > 0`))
      .groupBy(readingDays.day);
  type DayTotal = { day: string; readers: number; seconds: number };
  const [kept, live] = await Promise.all([
    closed.length
      ? db().select().from(readingDayTotals).where(inArray(readingDayTotals.day, closed))
      : Promise.resolve<DayTotal[]>([]),
    totals(gte(readingDays.day, addDays(today, -(LIVE_DAYS - 1)))),
  ]);
  const missing = closed.filter((day) => !kept.some((row) => row.day === day));
  if (missing.length) {
    const counted = await totals(inArray(readingDays.day, missing));
    const rows = missing.map(
      (day) => counted.find((row) => row.day === day) ?? { day, readers: 0, seconds: 0 },
    );
    await db().insert(readingDayTotals).values(rows).onConflictDoNothing();
    kept.push(...rows);
  }
  const all = [...kept, ...live];
  return days.map((day) => all.find((row) => row.day === day) ?? { day, readers: 0, seconds: 0 });
}

type Revenue = { kind: PaymentKind; currency: string; cents: number }[];

/** This month's and last month's money by source, a table per currency (the site's prices are in USD). */
function revenueBySource(thisMonth: Revenue, lastMonth: Revenue) {
  const currencies = [...new Set([...thisMonth, ...lastMonth].map((row) => row.currency))].sort();
  const cents = (rows: Revenue, kind: PaymentKind, currency: string) =>
    rows.find((row) => row.kind === kind && row.currency === currency)?.cents ?? 0;
  return (currencies.length ? currencies : ["USD"]).map((currency) => ({
    currency,
    sources: paymentKinds.map((kind) => ({
      kind,
      thisMonth: cents(thisMonth, kind, currency),
      lastMonth: cents(lastMonth, kind, currency),
    })),
  }));
}

/**
 * Everything the overview shows, each figure one aggregate query: readers with reading time
 * (today, 7 and 30 days, and a day at a time for the chart, by the readers' own calendar days), new
 * accounts, this month's and last month's revenue by source (months of the site's time zone), active
 * supporters by tier, goals, orders waiting to ship, and the chapters' counts and upcoming releases.
 */
export async function getOverview(now = new Date()) {
  const zone = getEnv().SITE_TIME_ZONE;
  const today = localDay(now, zone);
  const firstDay = addDays(today, -(CHART_DAYS - 1));
  const thisMonth = monthOf(now, zone);
  const lastMonth = monthOf(new Date(thisMonth.start.getTime() - 1), zone);
  const since = (days: number) => addDays(today, -(days - 1));
  const [readers, perDay, joinedRows, revenueNow, revenueBefore, supporters, toShip, goals, chapters] =
    await Promise.all([
      db()
        .select(
          Object.fromEntries(
            WINDOWS.map((days) => [
              `readers${days}`,
              sql<number>`count(*) filter (where ${users.lastReadOn} >= ${since(days)})`.mapWith(Number),
            ]),
          ),
        )
        .from(users)
        .where(gte(users.lastReadOn, since(30))),
      readingByDay(firstDay, today),
      db()
        .select(
          Object.fromEntries(
            WINDOWS.map((days) => [
              `joined${days}`,
              sql<number>`count(*) filter (where ${users.createdAt} >= ${new Date(now.getTime() - days * 86_400_000)})`.mapWith(
                Number,
              ),
            ]),
          ),
        )
        .from(users)
        .where(gte(users.createdAt, new Date(now.getTime() - 30 * 86_400_000))),
      revenueBetween(thisMonth.start, now),
      revenueBetween(lastMonth.start, thisMonth.start),
      activeSupportersByTier(now),
      db().select({ count: count() }).from(orders).where(eq(orders.status, "paid")),
      getGoals(now),
      adminOverview(),
    ]);
  const row = (readers[0] ?? {}) as Record<string, number>;
  const joined = (joinedRows[0] ?? {}) as Record<string, number>;
  const secondsSince = (day: string) =>
    perDay.filter((entry) => entry.day >= day).reduce((total, entry) => total + entry.seconds, 0);
  return {
    readers: WINDOWS.map((days) => ({
      days,
      readers: row[`readers${days}`] ?? 0,
      seconds: secondsSince(since(days)),
      joined: joined[`joined${days}`] ?? 0,
    })),
    readingChart: perDay.map(({ day, readers }) => ({ day, readers })),
    revenue: revenueBySource(revenueNow, revenueBefore),
    supporters,
    ordersToShip: toShip[0]?.count ?? 0,
    goals: [goals.campaign, goals.monthly].filter((goal) => goal !== undefined),
    chapters: chapters.chapters,
    accounts: chapters.readers,
    upcoming: chapters.upcoming,
  };
}
