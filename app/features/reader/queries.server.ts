import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, readingDays, readingProgress, readingSettings, users } from "#db/schema";
import { forgetKeptSessions } from "~/features/auth/session.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import type { ReadingSettings } from "~/features/reading-settings/settings";
import { READING_DAY_SECONDS } from "~/features/streaks/streaks";
import type { Language } from "~/i18n/config";
import { localDateTime } from "~/lib/local-time";
import { type ChapterProgress, COMPLETION_THRESHOLD, mergeProgress } from "./progress";
import { countReading, countsAsCompleted } from "./reading-rule";

export async function saveReadingSettings(userId: number, settings: ReadingSettings) {
  await db()
    .insert(readingSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: readingSettings.userId, set: { ...settings, updatedAt: new Date() } });
  // The reader's kept chapter pages are chosen by their settings (page-cache/viewer.server.ts).
  forgetKeptSessions(userId);
}

/**
 * A stored row as the reader's record (the browser's shape): `completed` there is the reader's place, the end
 * reached (98 %), as in browser storage; the row's `completed` is what the reading rule counts (ADR 58).
 */
const toProgress = (row: typeof readingProgress.$inferSelect): ChapterProgress => ({
  scrollPosition: row.scrollPosition,
  paragraph: row.paragraph,
  completionPercentage: row.completionPercentage,
  readingTime: row.readingTimeSeconds,
  completed: row.completed || row.completionPercentage >= COMPLETION_THRESHOLD,
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

/** Where and how a write happened: the reader's time zone (IANA, valid) and interface language. */
export type ReadingContext = { timeZone: string; language: Language };

/** What a write changed that may earn an achievement. */
export type ProgressChange = { completed: boolean; readingDay: boolean; bookmarked: boolean };

/**
 * The time zone a reader's reading is dated in: the one they chose on /settings, if they did; else the
 * browser's (its `tz` cookie, already validated), kept on the account when it changes; else the one the
 * account has (read with the session: no query).
 */
export async function readerTimeZone(
  user: { id: number; timeZone: string; timeZoneFixed: boolean },
  browserZone: string | undefined,
): Promise<string> {
  if (user.timeZoneFixed || !browserZone || browserZone === user.timeZone) return user.timeZone;
  await db().update(users).set({ timeZone: browserZone }).where(eq(users.id, user.id));
  return browserZone;
}

/**
 * Saves progress merged with what the server has (another device may be further on), under the reading rule
 * (reading-rule.ts, ADR 58): the record's reading time counts only as far as the server's clock allows, and
 * the chapter is completed only with the counted reading its length needs. In the same transaction: the
 * seconds counted, on the reader's local day, and when a chapter is first completed, the time and local time
 * of completion. Returns undefined for an unknown chapter (the route refuses those before).
 */
export async function saveProgress(
  userId: number,
  number: number,
  received: ChapterProgress,
  now = new Date(),
  context: ReadingContext = { timeZone: "UTC", language: "en" },
): Promise<ProgressChange | undefined> {
  const incoming = { ...received, lastReadAt: receivedAt(received.lastReadAt, now) };
  const chapter = (await getChapterCatalog()).byNumber.get(number);
  if (!chapter) return undefined;
  return db().transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(readingProgress)
      .where(and(eq(readingProgress.userId, userId), eq(readingProgress.chapterId, chapter.id)))
      .for("update");
    const merged = existing ? mergeProgress(toProgress(existing), incoming) : incoming;
    const counted = existing?.readingTimeSeconds ?? 0;
    const count = countReading(incoming.readingTime, counted, existing?.countedAt?.getTime(), now.getTime());
    const readingTime = counted + count.seconds;
    // Scrolled to the end now or before (the kept percentage), though maybe not completed then.
    const reachedEnd = incoming.completed || (existing?.completionPercentage ?? 0) >= COMPLETION_THRESHOLD;
    const completed =
      Boolean(existing?.completed) || countsAsCompleted(reachedEnd, readingTime, chapter.wordCount);
    const local = localDateTime(now, context.timeZone);
    const completedNow = completed && !existing?.completed;
    const values = {
      scrollPosition: merged.scrollPosition,
      paragraph: merged.paragraph,
      completionPercentage: merged.completionPercentage,
      readingTimeSeconds: readingTime,
      completed,
      bookmarks: merged.bookmarks,
      lastReadAt: new Date(merged.lastReadAt),
      countedAt: new Date(count.countedAt),
      ...(completedNow ? { completedAt: now, completedLocal: local } : {}),
    };
    await tx
      .insert(readingProgress)
      .values({ userId, chapterId: chapter.id, ...values })
      .onConflictDoUpdate({ target: [readingProgress.userId, readingProgress.chapterId], set: values });
    const added = count.seconds;
    let readingDay = false;
    if (added > 0) {
      const [day] = await tx
        .insert(readingDays)
        .values({ userId, day: local.slice(0, 10), seconds: added, languages: [context.language] })
        .onConflictDoUpdate({
          target: [readingDays.userId, readingDays.day],
          set: {
            seconds: sql`least(86400, ${readingDays.seconds} + excluded.seconds)`,
            languages: sql`case when ${context.language} = any(${readingDays.languages}) then ${readingDays.languages} else array_append(${readingDays.languages}, ${context.language}::text) end`,
          },
        })
        .returning({ seconds: readingDays.seconds });
      // The reader's newest reading day, for the overview's counts (only a newer day writes the row).
      await tx
        .update(users)
        .set({ lastReadOn: local.slice(0, 10) })
        .where(
          and(eq(users.id, userId), or(isNull(users.lastReadOn), lt(users.lastReadOn, local.slice(0, 10)))),
        );
      // Crossing the reading-day threshold (or a new language) may move a streak.
      readingDay =
        (day?.seconds ?? 0) >= READING_DAY_SECONDS && (day?.seconds ?? 0) - added < READING_DAY_SECONDS;
    }
    const bookmarked = merged.bookmarks.length > (existing?.bookmarks.length ?? 0);
    return { completed: completedNow, readingDay, bookmarked };
  });
}
