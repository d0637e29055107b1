import type { ChapterProgress } from "./progress";

// Apart from progress.ts, which every page's first download carries: in the browser only a signed-in
// reader's account records are merged, by the lazily loaded account-progress.ts (ADR 48).
/**
 * Two records of one chapter (another device, or the visitor's storage at sign-in): the furthest progress
 * and the union of bookmarks win; reading time is the larger, never the sum, so a merge repeated is harmless.
 */
export function mergeProgress(a: ChapterProgress, b: ChapterProgress): ChapterProgress {
  const further =
    b.completionPercentage > a.completionPercentage ||
    (b.completionPercentage === a.completionPercentage && b.lastReadAt > a.lastReadAt)
      ? b
      : a;
  return {
    ...further,
    completed: a.completed || b.completed,
    completionPercentage: a.completed || b.completed ? 100 : further.completionPercentage,
    readingTime: Math.max(a.readingTime, b.readingTime),
    bookmarks: [...new Set([...a.bookmarks, ...b.bookmarks])].sort((x, y) => x - y),
    lastReadAt: [a.lastReadAt, b.lastReadAt].sort().at(-1) ?? a.lastReadAt,
  };
}
