import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { readingDays, readingProgress, users } from "#db/schema";
import { evaluateAchievements } from "~/features/achievements/queries.server";
import { chapterAnalytics } from "~/features/admin/analytics.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { type ChapterProgress, emptyProgress } from "~/features/reader/progress";
import type { ProgressChange, ReadingContext } from "~/features/reader/progress-writes.server";
import { saveProgress } from "~/features/reader/queries.server";
import { loadReaderRecords } from "~/features/streaks/records.server";
import type { Language } from "~/i18n/config";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";
import { earnedKeys } from "../support/progress";

/**
 * Progress writes coalesced (ADR 67): writes that arrive together are written in one batch, and what they
 * leave (progress, reading days, the newest reading day, what they earned, the streaks and the analytics)
 * is exactly what the same writes saved one after another leave.
 */

// Two minutes before midnight UTC: the reading crosses a day in some readers' zones.
const START = Date.parse("2026-11-25T23:58:00.000Z");
const ZONES = ["UTC", "Asia/Tokyo", "America/New_York", "Europe/Paris"];
const LANGUAGES: Language[] = ["en", "fr", "es", "ja"];
const STEPS = 28;

type Step = { chapter: number; progress: ChapterProgress; now: Date; context: ReadingContext };

/**
 * Reader `i`'s writes at step `s`, as a page sending every 15 s sends them: chapter 1 read through (a bookmark
 * on the way, the end at the last step), and a second write of the same chapter in the same moment (another
 * tab, a little further on), and chapter 2 opened.
 */
function writesAt(i: number, s: number): Step[] {
  const now = new Date(START + s * 15_000 + i * 137);
  const context = { timeZone: ZONES[i % ZONES.length] as string, language: LANGUAGES[s % 4] as Language };
  const end = s === STEPS - 1;
  const place = (extra: number): ChapterProgress => ({
    ...emptyProgress(),
    readingTime: s * 15 + extra,
    scrollPosition: end ? 1 : s / STEPS,
    paragraph: s,
    completionPercentage: end ? 100 : Math.round((s / STEPS) * 100),
    completed: end,
    bookmarks: s >= 10 + i ? [10 + i] : [],
    lastReadAt: now.toISOString(),
  });
  const writes: Step[] = [{ chapter: 1, progress: place(i), now, context }];
  if (s % 3 === i % 3) writes.push({ chapter: 1, progress: place(i + 7), now, context });
  if (s === i) writes.push({ chapter: 2, progress: emptyProgress(), now, context });
  return writes;
}

/** What a reader's writes left: progress rows, reading days, the newest reading day, achievements, streak. */
async function leftBy(userId: number) {
  const progress = await db()
    .select()
    .from(readingProgress)
    .where(eq(readingProgress.userId, userId))
    .orderBy(asc(readingProgress.chapterId));
  const days = await db()
    .select({ day: readingDays.day, seconds: readingDays.seconds, languages: readingDays.languages })
    .from(readingDays)
    .where(eq(readingDays.userId, userId))
    .orderBy(asc(readingDays.day));
  const [user] = await db().select({ lastReadOn: users.lastReadOn }).from(users).where(eq(users.id, userId));
  const { streak } = await loadReaderRecords(userId, new Date(START + STEPS * 15_000));
  return {
    progress: progress.map(({ userId: _, ...row }) => row),
    days,
    lastReadOn: user?.lastReadOn,
    achievements: await earnedKeys(userId),
    streak,
  };
}

const READERS = 8;

describe.each(drivers)("progress writes coalesced on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("leave exactly what the same writes saved one at a time leave, streaks and analytics included", async () => {
    const catalog = await getChapterCatalog();
    const first = catalog.byNumber.get(1)?.id as number;
    const alone: number[] = [];
    const together: number[] = [];
    for (let i = 0; i < READERS; i++) {
      alone.push((await createReader({ prefix: "alone" })).id);
      together.push((await createReader({ prefix: "together" })).id);
    }
    const save = (userId: number, step: Step) =>
      saveProgress(userId, step.chapter, step.progress, step.now, step.context);
    const aloneChanges: (ProgressChange | undefined)[] = [];
    for (let s = 0; s < STEPS; s++)
      for (let i = 0; i < READERS; i++)
        for (const step of writesAt(i, s)) aloneChanges.push(await save(alone[i] as number, step));
    for (const userId of alone) await evaluateAchievements(userId);
    const [afterAlone] = await chapterAnalytics(first);

    const togetherChanges: (ProgressChange | undefined)[] = [];
    const transactions = new Set<string>();
    for (let s = 0; s < STEPS; s++) {
      // Every reader's writes of the moment at once: they queue while the first is written, then go together.
      togetherChanges.push(
        ...(await Promise.all(
          Array.from({ length: READERS }, (_, i) =>
            writesAt(i, s).map((step) => save(together[i] as number, step)),
          ).flat(),
        )),
      );
      const written = await db()
        .select({ xmin: sql<string>`xmin::text` })
        .from(readingProgress)
        .where(and(inArray(readingProgress.userId, together), eq(readingProgress.chapterId, first)));
      for (const row of written) transactions.add(`${s} ${row.xmin}`);
    }
    for (const userId of together) await evaluateAchievements(userId);
    const [afterBoth] = await chapterAnalytics(first);

    // Coalesced: each moment's writes of eight readers went in one transaction, not one each (the first one
    // waits for the rest of its turn of the event loop: ADR 106).
    expect(transactions.size).toBe(STEPS);
    expect(togetherChanges).toEqual(aloneChanges);
    expect(aloneChanges.some((change) => change?.readingDay)).toBe(true);
    expect(aloneChanges.some((change) => change?.completed)).toBe(true);
    for (let i = 0; i < READERS; i++) {
      const expected = await leftBy(alone[i] as number);
      expect(expected.days.length).toBeGreaterThan(0);
      expect(expected.progress[0]?.completed).toBe(true);
      expect(await leftBy(together[i] as number)).toEqual(expected);
    }
    // The same readers twice over: twice the counts, the same rates and times.
    expect(afterAlone?.started).toBe(READERS);
    expect(afterBoth).toMatchObject({
      started: 2 * (afterAlone?.started ?? 0),
      finished: 2 * (afterAlone?.finished ?? 0),
      reached: 2 * (afterAlone?.reached ?? 0),
      completionRate: afterAlone?.completionRate,
      averageSeconds: afterAlone?.averageSeconds,
      dropOff: afterAlone?.dropOff.map((count) => 2 * count),
    });
  }, 240_000);

  it("keeps every bookmark and second of many concurrent writes of the same and different readers", async () => {
    const readers: number[] = [];
    for (let i = 0; i < 5; i++) readers.push((await createReader({ prefix: "race" })).id);
    const context: ReadingContext = { timeZone: "UTC", language: "en" };
    const opened = new Date(START);
    await Promise.all(readers.map((userId) => saveProgress(userId, 3, emptyProgress(), opened, context)));
    // 40 writes a reader at once, each claiming a bookmark of its own and a minute of reading.
    const now = new Date(START + 120_000);
    await Promise.all(
      readers.flatMap((userId) =>
        Array.from({ length: 40 }, (_, k) =>
          saveProgress(userId, 3, { ...emptyProgress(), readingTime: 60, bookmarks: [k] }, now, context),
        ),
      ),
    );
    const rows = await db()
      .select({
        userId: readingProgress.userId,
        seconds: readingProgress.readingTimeSeconds,
        bookmarks: readingProgress.bookmarks,
      })
      .from(readingProgress)
      .where(inArray(readingProgress.userId, readers));
    expect(rows).toHaveLength(readers.length);
    for (const row of rows) {
      expect(row.bookmarks).toEqual(Array.from({ length: 40 }, (_, k) => k));
      expect(row.seconds).toBe(60);
    }
    const days = await db()
      .select({ seconds: readingDays.seconds })
      .from(readingDays)
      .where(inArray(readingDays.userId, readers));
    expect(days.map((day) => day.seconds)).toEqual(readers.map(() => 60));
  }, 120_000);
});
