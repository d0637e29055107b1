import { dayNumber, localDay } from "~/lib/local-time";

/**
 * The spans of days on which a reader had something new to read (docs/product-rules.md "Streaks"): each
 * chapter open to them, from the day it opened (its release; for a paid chapter, its unlock) to the day they
 * completed it, or to today. Every other day is a caught-up day, which never breaks a streak. Chapters read
 * ahead by a member are left out: which tier a reader had on a past day is not recorded.
 */
type Published = { id: number; releaseAt: Date; coinsRequired: number }[];

/**
 * The local day (day number) of each published chapter's release in a time zone, index for index, computed
 * once per catalogue and zone: the catalogue is a new array whenever the content changes, so a day kept
 * here is never stale, and the per-chapter work of a visit is a lookup, not a time-zone conversion.
 */
const releaseDaysByCatalogue = new WeakMap<Published, Map<string, Int32Array>>();

function releaseDays(published: Published, timeZone: string): Int32Array {
  let zones = releaseDaysByCatalogue.get(published);
  if (!zones) {
    zones = new Map();
    releaseDaysByCatalogue.set(published, zones);
  }
  let days = zones.get(timeZone);
  if (!days) {
    days = Int32Array.from(published, (chapter) => dayNumber(localDay(chapter.releaseAt, timeZone)));
    zones.set(timeZone, days);
  }
  return days;
}

export function busySpans(input: {
  timeZone: string;
  todayNumber: number;
  now: Date;
  catalog: { published: Published };
  unlocks: { chapterId: number; createdAt: Date }[];
  progress: {
    chapterId: number;
    completed: boolean;
    completedAt: Date | null;
    completedLocal: string | null;
  }[];
}): { from: number; to: number }[] {
  const unlocked = new Map(input.unlocks.map((unlock) => [unlock.chapterId, unlock.createdAt]));
  const progress = new Map(input.progress.map((row) => [row.chapterId, row]));
  const spans: { from: number; to: number }[] = [];
  const dayOf = (instant: Date) => dayNumber(localDay(instant, input.timeZone));
  const released = releaseDays(input.catalog.published, input.timeZone);
  input.catalog.published.forEach((chapter, index) => {
    if (chapter.releaseAt.getTime() > input.now.getTime()) return;
    const unlockedAt = unlocked.get(chapter.id);
    if (chapter.coinsRequired > 0 && !unlockedAt) return;
    const from =
      unlockedAt && unlockedAt.getTime() > chapter.releaseAt.getTime()
        ? dayOf(unlockedAt)
        : (released[index] as number);
    const row = progress.get(chapter.id);
    let to = input.todayNumber;
    if (row?.completed) {
      // Completed before completion dates were recorded: long done, it keeps no day busy.
      if (!row.completedLocal && !row.completedAt) return;
      to = row.completedLocal ? dayNumber(row.completedLocal.slice(0, 10)) : dayOf(row.completedAt as Date);
    }
    spans.push({ from, to });
  });
  return spans;
}
