import { and, eq, inArray } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, readingProgress, readingSettings } from "#db/schema";
import type { ReadingSettings } from "~/features/reading-settings/settings";
import { type ChapterProgress, mergeProgress } from "./progress";

export async function saveReadingSettings(userId: number, settings: ReadingSettings) {
  await db()
    .insert(readingSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: readingSettings.userId, set: { ...settings, updatedAt: new Date() } });
}

const toProgress = (row: typeof readingProgress.$inferSelect): ChapterProgress => ({
  scrollPosition: row.scrollPosition,
  paragraph: row.paragraph,
  completionPercentage: row.completionPercentage,
  readingTime: row.readingTimeSeconds,
  completed: row.completed,
  bookmarks: row.bookmarks,
  lastReadAt: row.lastReadAt.toISOString(),
});

/** A signed-in reader's progress by chapter number. */
export async function getProgress(
  userId: number,
  numbers?: number[],
): Promise<Record<number, ChapterProgress>> {
  const rows = await db()
    .select({ number: chapters.number, progress: readingProgress })
    .from(readingProgress)
    .innerJoin(chapters, eq(readingProgress.chapterId, chapters.id))
    .where(and(eq(readingProgress.userId, userId), numbers ? inArray(chapters.number, numbers) : undefined));
  return Object.fromEntries(rows.map((row) => [row.number, toProgress(row.progress)]));
}

/**
 * When a record was last read, as the server will keep it: a browser's record that was never dated (only
 * read for a while, or bookmarked, never scrolled: the empty record's 1970) or dated in the future is
 * dated now, when it arrives.
 */
export function receivedAt(lastReadAt: string, now: Date): string {
  const time = Date.parse(lastReadAt);
  return time > 0 && time <= now.getTime() ? lastReadAt : now.toISOString();
}

/** Saves progress merged with what the server has (another device may be further on). */
export async function saveProgress(
  userId: number,
  number: number,
  received: ChapterProgress,
  now = new Date(),
): Promise<boolean> {
  const incoming = { ...received, lastReadAt: receivedAt(received.lastReadAt, now) };
  const [chapter] = await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number));
  if (!chapter) return false;
  await db().transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(readingProgress)
      .where(and(eq(readingProgress.userId, userId), eq(readingProgress.chapterId, chapter.id)))
      .for("update");
    const merged = existing ? mergeProgress(toProgress(existing), incoming) : incoming;
    const values = {
      scrollPosition: merged.scrollPosition,
      paragraph: merged.paragraph,
      completionPercentage: merged.completionPercentage,
      readingTimeSeconds: merged.readingTime,
      completed: merged.completed,
      bookmarks: merged.bookmarks,
      lastReadAt: new Date(merged.lastReadAt),
    };
    await tx
      .insert(readingProgress)
      .values({ userId, chapterId: chapter.id, ...values })
      .onConflictDoUpdate({ target: [readingProgress.userId, readingProgress.chapterId], set: values });
  });
  return true;
}
