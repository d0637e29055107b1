import { parseTimestamp } from "~/lib/parse";

/** Per-chapter reading progress (docs/product-rules.md "Reading progress"); the same shape in storage and on the server. */
export type ChapterProgress = {
  scrollPosition: number;
  paragraph: number;
  completionPercentage: number;
  readingTime: number;
  completed: boolean;
  bookmarks: number[];
  lastReadAt: string;
};

const intBetween = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * Checks a record from browser storage or a request. Hand-written rather than a zod schema because this
 * module ships to the reader's browser, where a validation library would cost more than the reader itself.
 */
export function parseProgress(value: unknown): ChapterProgress | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const valid =
    typeof v.scrollPosition === "number" &&
    v.scrollPosition >= 0 &&
    v.scrollPosition <= 1 &&
    intBetween(v.paragraph, 0, 100_000) &&
    intBetween(v.completionPercentage, 0, 100) &&
    intBetween(v.readingTime, 0, 10_000_000) &&
    typeof v.completed === "boolean" &&
    Array.isArray(v.bookmarks) &&
    v.bookmarks.length <= 1000 &&
    v.bookmarks.every((b) => intBetween(b, 0, 100_000)) &&
    parseTimestamp(v.lastReadAt) !== undefined;
  if (!valid) return undefined;
  return {
    scrollPosition: v.scrollPosition as number,
    paragraph: v.paragraph as number,
    completionPercentage: v.completionPercentage as number,
    readingTime: v.readingTime as number,
    completed: v.completed as boolean,
    bookmarks: [...(v.bookmarks as number[])].sort((x, y) => x - y),
    lastReadAt: parseTimestamp(v.lastReadAt) as string,
  };
}

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

/**
 * A second of reading (the page visible, the reader active) is reading: it dates the record too, so a chapter
 * only opened and read, never scrolled, is not kept with the empty record's 1970.
 */
export function readSecond(progress: ChapterProgress, now: Date): ChapterProgress {
  return { ...progress, readingTime: progress.readingTime + 1, lastReadAt: now.toISOString() };
}

export function toggleBookmark(progress: ChapterProgress, paragraph: number, now: Date): ChapterProgress {
  const has = progress.bookmarks.includes(paragraph);
  const bookmarks = has
    ? progress.bookmarks.filter((p) => p !== paragraph)
    : [...progress.bookmarks, paragraph];
  return { ...progress, bookmarks: bookmarks.sort((a, b) => a - b), lastReadAt: now.toISOString() };
}
