/**
 * SEED.md's relative time: under an hour "Just now", under a day "Nh ago", under a week "Nd ago", else a
 * date in the reader's language.
 */
export type RelativeTime = { kind: "justNow" } | { kind: "hours" | "days"; count: number } | { kind: "date" };

const HOUR = 3_600_000;

export function relativeTime(then: Date, now: Date): RelativeTime {
  const elapsed = Math.max(0, now.getTime() - then.getTime());
  if (elapsed < HOUR) return { kind: "justNow" };
  if (elapsed < 24 * HOUR) return { kind: "hours", count: Math.floor(elapsed / HOUR) };
  if (elapsed < 7 * 24 * HOUR) return { kind: "days", count: Math.floor(elapsed / (24 * HOUR)) };
  return { kind: "date" };
}
