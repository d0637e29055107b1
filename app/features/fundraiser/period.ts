/**
 * Goal periods in the site's time zone (SITE_TIME_ZONE): a monthly goal counts the calendar month that holds
 * `now` there, from its first midnight to the next month's, whatever the offset and its daylight-saving
 * changes. Pure, so the boundaries are unit-tested.
 */
import { offsetAt } from "~/lib/local-time";

/** The instant the first day of a month (0-based, may overflow into the next year) begins in the zone. */
function monthStart(year: number, month: number, timeZone: string): Date {
  const wall = Date.UTC(year, month, 1);
  // The offset at the guess may differ from the one at the answer across a change: look twice.
  const first = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(first, timeZone));
}

export type Period = { start: Date; end: Date };

/** The calendar month holding `now` in the zone: [start, end). */
export function monthOf(now: Date, timeZone: string): Period {
  const local = new Date(now.getTime() + offsetAt(now.getTime(), timeZone));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  return { start: monthStart(year, month, timeZone), end: monthStart(year, month + 1, timeZone) };
}

export type GoalWindow = { period: "campaign" | "monthly"; startsAt: Date; endsAt: Date | null };

/**
 * What a goal counts at `now`: a campaign its whole run, a monthly goal this month (never before the goal
 * starts or after it ends). `end` is exclusive; null means open.
 */
export function goalPeriod(goal: GoalWindow, now: Date, timeZone: string): { start: Date; end: Date | null } {
  if (goal.period === "campaign") return { start: goal.startsAt, end: goal.endsAt };
  const month = monthOf(now, timeZone);
  const start = new Date(Math.max(month.start.getTime(), goal.startsAt.getTime()));
  const end = new Date(Math.min(month.end.getTime(), goal.endsAt?.getTime() ?? Number.POSITIVE_INFINITY));
  return { start, end };
}

/** Whole percent of the target reached (may pass 100: the text tells the truth) and the bar's width (≤ 100). */
export function progressOf(
  raisedCents: number,
  targetCents: number,
): { percent: number; barPercent: number } {
  const percent = targetCents > 0 ? Math.floor((Math.max(0, raisedCents) / targetCents) * 100) : 0;
  return { percent, barPercent: Math.min(100, percent) };
}
