import { dayNumber, localDay } from "~/lib/local-time";

/**
 * The spans of days on which a reader had something new to read (docs/product-rules.md "Streaks"): each
 * chapter open to them, from the day it opened (its release; for a paid chapter, its unlock) to the day they
 * completed it, or to today. Every other day is a caught-up day, which never breaks a streak. Chapters read
 * ahead by a member are left out: which tier a reader had on a past day is not recorded.
 */
export function busySpans(input: {
  timeZone: string;
  todayNumber: number;
  now: Date;
  catalog: { published: { id: number; releaseAt: Date; coinsRequired: number }[] };
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
  for (const chapter of input.catalog.published) {
    if (chapter.releaseAt.getTime() > input.now.getTime()) continue;
    const unlockedAt = unlocked.get(chapter.id);
    if (chapter.coinsRequired > 0 && !unlockedAt) continue;
    const openedAt =
      unlockedAt && unlockedAt.getTime() > chapter.releaseAt.getTime() ? unlockedAt : chapter.releaseAt;
    const row = progress.get(chapter.id);
    let to = input.todayNumber;
    if (row?.completed) {
      // Completed before completion dates were recorded: long done, it keeps no day busy.
      if (!row.completedLocal && !row.completedAt) continue;
      to = row.completedLocal ? dayNumber(row.completedLocal.slice(0, 10)) : dayOf(row.completedAt as Date);
    }
    spans.push({ from: dayOf(openedAt), to });
  }
  return spans;
}
