const DAY_MS = 86_400_000;

/**
 * How an upcoming chapter's release reads: more than a day ahead, its date; within a day, the time in the
 * reader's zone, today or tomorrow, with a countdown; once the instant has passed, out.
 */
export type ReleaseLabel =
  | { kind: "date" }
  | { kind: "soon"; day: "today" | "tomorrow" }
  | { kind: "released" };

export function releaseLabel(releaseAt: Date, now: Date, timeZone: string): ReleaseLabel {
  const ahead = releaseAt.getTime() - now.getTime();
  if (ahead <= 0) return { kind: "released" };
  if (ahead > DAY_MS) return { kind: "date" };
  const days = calendarDay(releaseAt, timeZone) - calendarDay(now, timeZone);
  if (days === 0) return { kind: "soon", day: "today" };
  if (days === 1) return { kind: "soon", day: "tomorrow" };
  // A day shortened by a clock change can put 24 hours two calendar days apart: the date says it right.
  return { kind: "date" };
}

/**
 * The calendar day of `date` in `timeZone`, as a count of days (for differences only). Its own formatter, not
 * the kept ones of ~/lib/format: importing those from here would add to every page's shared script.
 */
function calendarDay(date: Date, timeZone: string): number {
  const [year = 0, month = 1, day = 1] = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  })
    .format(date)
    .split("-")
    .map(Number);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export type Countdown = { value: number; unit: "second" | "minute" | "hour" };

/**
 * The time left in one unit, as Intl.RelativeTimeFormat takes it ("in 3 min"); undefined once nothing is
 * left. Seconds and minutes round up, so it never says "in 0 min" while the chapter is still closed.
 */
export function countdown(leftMs: number): Countdown | undefined {
  if (leftMs <= 0) return undefined;
  if (leftMs < 60_000) return { value: Math.ceil(leftMs / 1000), unit: "second" };
  if (leftMs < 3_600_000) return { value: Math.ceil(leftMs / 60_000), unit: "minute" };
  return { value: Math.round(leftMs / 3_600_000), unit: "hour" };
}
