import { and, count, gte, inArray, type SQL, sql, sum } from "drizzle-orm";
import { db } from "#db/client.server";
import { readingDays, readingDayTotals } from "#db/schema";
import { addDays, dayNumber } from "~/lib/local-time";

/**
 * Days a reader may still write to: a reader's day is their own zone's, up to 26 hours from the site's, so
 * the site's today and the two days before it are counted live; older days are kept in reading_day_totals.
 */
const LIVE_DAYS = 3;

/**
 * Readers and reading time of each day from `first` to `today`: days older than the live ones from their kept
 * totals (a day not kept yet is counted once and kept), the live ones from the readers' days (ADR 43).
 */
export async function readingByDay(first: string, today: string) {
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
