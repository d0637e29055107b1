/**
 * What counts as reading (docs/product-rules.md "What counts as reading", ADR 58): the one rule behind the
 * dashboard's activity, reading days and streaks, achievements and the admin's chapter analytics, for
 * readers and visitors alike. It rests on reading time the server can establish itself, whatever the page
 * claims and however often it sends: a write counts no more seconds than the server's clock saw pass since
 * it last counted that reading.
 */

/** A chapter counts as read (started, in the analytics) from this many seconds of counted reading. */
export const READ_SECONDS = 30;

/**
 * The fastest plausible reading, in words a second: 10 (600 words a minute, more than twice the usual
 * silent reading of prose). A chapter scrolled to its end sooner than its words allow at this pace is not
 * completed.
 */
export const WORDS_PER_SECOND = 10;

/** At most this many seconds count from one write (the page sends far more often; more is a record kept offline or made up). */
export const MAX_SECONDS_PER_WRITE = 300;

/** Counted reading a chapter of `wordCount` words needs to count as completed: never less than as read. */
export function completionSeconds(wordCount: number): number {
  return Math.max(READ_SECONDS, Math.ceil(wordCount / WORDS_PER_SECOND));
}

/**
 * The seconds a write counts, and the new mark of the server's clock up to which reading was counted: what
 * the page's record adds beyond what was counted already, but no more than the whole seconds the server's
 * clock has seen pass since that mark (the first write only sets it). The mark never lags `now` by more than
 * MAX_SECONDS_PER_WRITE, so a page left open and idle banks no time, and the part of a second one write
 * could not count carries to the next: a page sending every second, or every 15 seconds, counts the same.
 */
export function countReading(
  claimed: number,
  counted: number,
  countedAt: number | undefined,
  now: number,
): { seconds: number; countedAt: number } {
  if (countedAt === undefined) return { seconds: 0, countedAt: now };
  const from = Math.max(countedAt, now - MAX_SECONDS_PER_WRITE * 1000);
  const seconds = Math.max(0, Math.min(claimed - counted, Math.floor((now - from) / 1000)));
  return { seconds, countedAt: from + seconds * 1000 };
}

/** Whether a chapter counts as completed: scrolled to its end (98 %) with the counted reading its length needs. */
export function countsAsCompleted(reachedEnd: boolean, countedSeconds: number, wordCount: number): boolean {
  return reachedEnd && countedSeconds >= completionSeconds(wordCount);
}

/** Whether a chapter counts as read: completed, or READ_SECONDS of counted reading. */
export function countsAsRead(countedSeconds: number, completed: boolean): boolean {
  return completed || countedSeconds >= READ_SECONDS;
}
