import { and, desc, eq, inArray } from "drizzle-orm";
import { db } from "#db/client.server";
import {
  chapterUnlocks,
  payments,
  readingDays,
  readingProgress,
  readingSettings,
  userAchievements,
  users,
} from "#db/schema";
import { type ChapterCatalog, getChapterCatalog } from "~/features/chapters/catalog.server";
import { getMembership, type Membership } from "~/features/membership/queries.server";
import { dayNumber, localDay } from "~/lib/local-time";
import { busySpans } from "./caught-up";
import { computeStreak, type Streak } from "./streaks";

/**
 * Everything about one reader that the dashboard, the streak and the achievements are computed from, read
 * in a fixed number of queries (never one per chapter or per day): the account, reading days, progress,
 * unlocks, payments, settings, achievements earned, the membership (three) and the chapter catalogue (kept
 * in memory until the content changes).
 */
export type ReaderRecords = {
  userId: number;
  now: Date;
  timeZone: string;
  today: string;
  createdAt: Date;
  days: { day: string; seconds: number; languages: string[] }[];
  progress: {
    chapterId: number;
    readingTimeSeconds: number;
    completed: boolean;
    completedAt: Date | null;
    completedLocal: string | null;
    bookmarks: number;
    lastReadAt: Date;
  }[];
  unlocks: { chapterId: number; createdAt: Date }[];
  payments: { id: number; kind: string; status: string; description: string; createdAt: Date }[];
  settingsChanged: boolean;
  membership: Membership;
  earned: { key: string; earnedAt: Date }[];
  catalog: ChapterCatalog;
  streak: Streak;
};

export async function loadReaderRecords(userId: number, now = new Date()): Promise<ReaderRecords> {
  const [account, days, progress, unlocks, paid, settings, earned, membership, catalog] = await Promise.all([
    db()
      .select({ timeZone: users.timeZone, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, userId)),
    db()
      .select({ day: readingDays.day, seconds: readingDays.seconds, languages: readingDays.languages })
      .from(readingDays)
      .where(eq(readingDays.userId, userId))
      .orderBy(readingDays.day),
    db()
      .select({
        chapterId: readingProgress.chapterId,
        readingTimeSeconds: readingProgress.readingTimeSeconds,
        completed: readingProgress.completed,
        completedAt: readingProgress.completedAt,
        completedLocal: readingProgress.completedLocal,
        bookmarks: readingProgress.bookmarks,
        lastReadAt: readingProgress.lastReadAt,
      })
      .from(readingProgress)
      .where(eq(readingProgress.userId, userId)),
    db()
      .select({ chapterId: chapterUnlocks.chapterId, createdAt: chapterUnlocks.createdAt })
      .from(chapterUnlocks)
      .where(eq(chapterUnlocks.userId, userId)),
    db()
      .select({
        id: payments.id,
        kind: payments.kind,
        status: payments.status,
        description: payments.description,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(and(eq(payments.userId, userId), inArray(payments.status, ["paid", "refunded"])))
      .orderBy(desc(payments.createdAt)),
    db()
      .select({ userId: readingSettings.userId })
      .from(readingSettings)
      .where(eq(readingSettings.userId, userId)),
    db()
      .select({ key: userAchievements.key, earnedAt: userAchievements.earnedAt })
      .from(userAchievements)
      .where(eq(userAchievements.userId, userId)),
    getMembership(userId, now),
    getChapterCatalog(),
  ]);
  const timeZone = account[0]?.timeZone ?? "UTC";
  const today = localDay(now, timeZone);
  const records = {
    userId,
    now,
    timeZone,
    today,
    createdAt: account[0]?.createdAt ?? now,
    days,
    progress: progress.map((row) => ({ ...row, bookmarks: row.bookmarks.length })),
    unlocks,
    payments: paid,
    settingsChanged: settings.length > 0,
    membership,
    earned,
    catalog,
  };
  const busy = busySpans({ ...records, todayNumber: dayNumber(today) });
  return { ...records, streak: computeStreak({ days, today, busy }) };
}
