import { and, count, eq, gte, inArray, lt, sql, sum } from "drizzle-orm";
import { db } from "#db/client.server";
import { orders, type PaymentKind, paymentKinds, payments, users } from "#db/schema";
import { adminOverview } from "~/features/chapters/admin-list.server";
import { monthOf } from "~/features/fundraiser/period";
import { getGoals } from "~/features/fundraiser/queries.server";
import { activeSupportersByTier } from "~/features/membership/subscription-access.server";
import { readingByDay } from "~/features/reader/reading-days.server";
import { getEnv } from "~/lib/env.server";
import { addDays, localDay } from "~/lib/local-time";

/** The reading chart's days, today included. */
export const CHART_DAYS = 30;
/** The reader and account windows the overview counts, in days (today included). */
const WINDOWS = [1, 7, 30] as const;

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
