import { and, desc, eq, gt, inArray, or } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, readingProgress, readingSettings, users } from "#db/schema";
import { forgetKeptSessions, readerGeneration } from "~/features/auth/session.server";
import type { ReadingSettings } from "~/features/reading-settings/settings";
import { boundedMemo } from "~/lib/bounded-memo";
import type { ProgressMark } from "./continue";
import type { ChapterProgress } from "./progress";
import {
  type ProgressChange,
  queueProgressWrite,
  type ReadingContext,
  toProgress,
} from "./progress-writes.server";

export async function saveReadingSettings(userId: number, settings: ReadingSettings) {
  await db()
    .insert(readingSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: readingSettings.userId, set: { ...settings, updatedAt: new Date() } });
  // The reader's kept chapter pages are chosen by their settings (page-cache/viewer.server.ts).
  forgetKeptSessions(userId);
}

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
 * The chapter a reader read last, begun or completed (what "Continue reading" starts from: `continueTarget`),
 * or undefined. Kept per reader until anything of theirs changes (their generation, ADR 53; a progress write
 * moves it): the viewer check of a long serial's table of contents (ADR 101) and its render ask it in turn.
 */
export function latestRead(userId: number): Promise<{ number: number; mark: ProgressMark } | undefined> {
  const generation = readerGeneration(userId);
  if (generation === undefined) return readLatest(userId);
  return latestKept(`${userId} ${generation}`, () => readLatest(userId));
}

const latestKept = boundedMemo<Promise<{ number: number; mark: ProgressMark } | undefined>>(2048);

async function readLatest(userId: number) {
  const [row] = await db()
    .select({
      number: chapters.number,
      completed: readingProgress.completed,
      percent: readingProgress.completionPercentage,
      lastReadAt: readingProgress.lastReadAt,
    })
    .from(readingProgress)
    .innerJoin(chapters, eq(readingProgress.chapterId, chapters.id))
    .where(
      and(
        eq(readingProgress.userId, userId),
        or(gt(readingProgress.completionPercentage, 0), eq(readingProgress.completed, true)),
      ),
    )
    .orderBy(desc(readingProgress.lastReadAt))
    .limit(1);
  if (!row) return undefined;
  const { number, lastReadAt, ...mark } = row;
  return { number, mark: { ...mark, lastReadAt: lastReadAt.toISOString() } };
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
 * of completion. Written with the other readers' writes of the moment, in one batch (progress-writes.server.ts,
 * ADR 67); resolves once that batch has committed. Returns undefined for an unknown chapter (the route
 * refuses those before).
 */
export function saveProgress(
  userId: number,
  number: number,
  received: ChapterProgress,
  now = new Date(),
  context: ReadingContext = { timeZone: "UTC", language: "en" },
): Promise<ProgressChange | undefined> {
  const incoming = { ...received, lastReadAt: receivedAt(received.lastReadAt, now) };
  return queueProgressWrite({ userId, number, incoming, now, context });
}
