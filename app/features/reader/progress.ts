import { z } from "zod";

/** Per-chapter reading progress (SEED.md "ChapterProgress"); the same shape in storage and on the server. */
export const progressSchema = z.object({
  scrollPosition: z.number().min(0).max(1),
  paragraph: z.number().int().min(0).max(100_000),
  completionPercentage: z.number().int().min(0).max(100),
  readingTime: z.number().int().min(0).max(10_000_000),
  completed: z.boolean(),
  bookmarks: z.array(z.number().int().min(0).max(100_000)).max(1000),
  lastReadAt: z.string(),
});
export type ChapterProgress = z.infer<typeof progressSchema>;

export const COMPLETION_THRESHOLD = 98;

export function emptyProgress(): ChapterProgress {
  return {
    scrollPosition: 0,
    paragraph: 0,
    completionPercentage: 0,
    readingTime: 0,
    completed: false,
    bookmarks: [],
    lastReadAt: new Date(0).toISOString(),
  };
}

/** Scrolling updates the place; at 98 % or more a chapter not yet complete is marked completed at 100 %. */
export function advance(
  progress: ChapterProgress,
  scrollPosition: number,
  paragraph: number,
  now: Date,
): ChapterProgress {
  const percentage = Math.round(scrollPosition * 100);
  const completed = progress.completed || percentage >= COMPLETION_THRESHOLD;
  return {
    ...progress,
    scrollPosition,
    paragraph,
    completionPercentage: completed ? 100 : Math.max(progress.completionPercentage, percentage),
    completed,
    lastReadAt: now.toISOString(),
  };
}

export function toggleBookmark(progress: ChapterProgress, paragraph: number): ChapterProgress {
  const has = progress.bookmarks.includes(paragraph);
  const bookmarks = has
    ? progress.bookmarks.filter((p) => p !== paragraph)
    : [...progress.bookmarks, paragraph];
  return { ...progress, bookmarks: bookmarks.sort((a, b) => a - b) };
}

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
