import { dayNumber } from "~/lib/local-time";

/**
 * Reading streaks (docs/product-rules.md "Streaks"), a pure computation over stored reading days, never a
 * counter. Days are the reader's local calendar days ("YYYY-MM-DD") as recorded.
 *
 * - A reading day has at least READING_DAY_SECONDS of reading.
 * - The current streak counts consecutive reading days up to today; today not yet read does not break it.
 * - A caught-up day (every chapter open to the reader was completed before it) neither counts nor breaks.
 * - Each time the streak reaches a multiple of 7 the reader earns a freeze day (at most MAX_FREEZES held);
 *   a missed day spends one automatically and the streak goes on (the frozen day does not count).
 */

export const READING_DAY_SECONDS = 120;
export const MAX_FREEZES = 2;
export const FREEZE_EVERY = 7;
export const MILESTONES = [7, 30, 100, 365] as const;

export type StreakInput = {
  /** Seconds read per local day. */
  days: { day: string; seconds: number }[];
  /** Today in the reader's time zone. */
  today: string;
  /**
   * Spans of days (inclusive, day numbers) on which the reader had something new to read: from the day a
   * chapter opened to them to the day they completed it (to today when they have not). Days outside every
   * span are caught up.
   */
  busy: { from: number; to: number }[];
};

export type Streak = {
  current: number;
  longest: number;
  freezes: number;
  /** Freeze days spent so far. */
  freezesSpent: number;
  readingDays: number;
  next: { milestone: number; progress: number } | null;
};

/** Marks the busy days from `first` to `last` (day numbers): a difference array over the range. */
function busyDays(busy: StreakInput["busy"], first: number, last: number): Uint8Array {
  const length = last - first + 1;
  const delta = new Int32Array(length + 1);
  for (const span of busy) {
    const from = Math.max(span.from, first);
    const to = Math.min(span.to, last);
    if (from > to) continue;
    delta[from - first] = (delta[from - first] ?? 0) + 1;
    delta[to - first + 1] = (delta[to - first + 1] ?? 0) - 1;
  }
  const marks = new Uint8Array(length);
  let open = 0;
  for (let index = 0; index < length; index++) {
    open += delta[index] ?? 0;
    marks[index] = open > 0 ? 1 : 0;
  }
  return marks;
}

/** The next milestone above `current`, and how far toward it (0 to 1); null past the last. */
export function nextMilestone(current: number): Streak["next"] {
  const milestone = MILESTONES.find((value) => value > current);
  return milestone ? { milestone, progress: current / milestone } : null;
}

export function computeStreak({ days, today, busy }: StreakInput): Streak {
  const todayNumber = dayNumber(today);
  const read = new Set<number>();
  for (const { day, seconds } of days) {
    const number = dayNumber(day);
    if (seconds >= READING_DAY_SECONDS && number <= todayNumber) read.add(number);
  }
  const empty = { current: 0, longest: 0, freezes: 0, freezesSpent: 0, readingDays: 0 };
  if (read.size === 0) return { ...empty, next: nextMilestone(0) };
  const first = Math.min(...read);
  const marks = busyDays(busy, first, todayNumber);
  let current = 0;
  let longest = 0;
  let freezes = 0;
  let freezesSpent = 0;
  for (let day = first; day <= todayNumber; day++) {
    if (read.has(day)) {
      current++;
      longest = Math.max(longest, current);
      if (current % FREEZE_EVERY === 0) freezes = Math.min(MAX_FREEZES, freezes + 1);
    } else if (day === todayNumber || !marks[day - first]) {
      // Today is not over; a caught-up day neither counts nor breaks.
    } else if (current > 0 && freezes > 0) {
      freezes--;
      freezesSpent++;
    } else {
      current = 0;
      freezes = 0;
    }
  }
  return { current, longest, freezes, freezesSpent, readingDays: read.size, next: nextMilestone(current) };
}
