import { asc } from "drizzle-orm";
import { db } from "#db/client.server";
import { achievements, type LocalizedText, userAchievements } from "#db/schema";
import { isDatabaseUnavailable } from "#db/unavailable";
import { memoByRevision } from "~/features/site/revision.server";
import { loadReaderRecords } from "~/features/streaks/records.server";
import type { Language } from "~/i18n/config";
import { logger } from "~/lib/logger.server";
import { achievementFacts, applicableAchievements, meets } from "./rules";

export type Achievement = typeof achievements.$inferSelect;

/**
 * The catalogue, kept until the content revision moves: it is content, and the import moves the revision
 * when it changes it (content/import.server.ts). Read per visit, it was 15 KB of JSON and about 1 ms.
 */
export const listAchievements = memoByRevision(
  async (): Promise<Achievement[]> =>
    await db().select().from(achievements).orderBy(asc(achievements.sortOrder), asc(achievements.key)),
);

/**
 * Awards every achievement the reader's records meet and they do not hold yet, each exactly once (the
 * primary key and `on conflict do nothing`: of concurrent requests, only one gets the row back). Run after
 * a progress write that may earn one and by the /account and /achievements loaders, so a reader whose
 * history predates an achievement earns it on their next visit. Returns the records (with the earned list
 * brought up to date), the catalogue as it applies to the serial (applicableAchievements) and what this call
 * awarded.
 */
export async function evaluateAchievements(userId: number, now = new Date()) {
  const [records, everyAchievement] = await Promise.all([loadReaderRecords(userId, now), listAchievements()]);
  const held = new Set(records.earned.map((row) => row.key));
  const volumes = new Set(records.catalog.published.map((chapter) => chapter.volume.number));
  const catalogue = applicableAchievements(everyAchievement, volumes, held);
  const facts = achievementFacts(records);
  const due = catalogue.filter((achievement) => !held.has(achievement.key) && meets(achievement, facts));
  let awarded: Achievement[] = [];
  if (due.length) {
    const inserted = await db()
      .insert(userAchievements)
      .values(due.map((achievement) => ({ userId, key: achievement.key, earnedAt: now })))
      .onConflictDoNothing()
      .returning({ key: userAchievements.key, earnedAt: userAchievements.earnedAt });
    const keys = new Set(inserted.map((row) => row.key));
    awarded = due.filter((achievement) => keys.has(achievement.key));
    records.earned.push(...inserted);
  }
  return { records, catalogue, awarded };
}

/**
 * What a progress write just committed earned (evaluateAchievements). The write is kept by now, so a database
 * that goes away meanwhile does not fail it (its reader would be told to send again what is saved): nothing
 * is awarded this time, `settled` is false (an award may have committed unanswered), and the next notable
 * write, /account or /achievements evaluates again. Any other error is thrown.
 */
export async function achievementsAfterWrite(
  userId: number,
): Promise<{ awarded: Achievement[]; settled: boolean }> {
  try {
    return { awarded: (await evaluateAchievements(userId)).awarded, settled: true };
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error, userId }, "achievements not evaluated after a kept progress write");
    return { awarded: [], settled: false };
  }
}

export function localized(text: LocalizedText, language: Language): string {
  return text[language] ?? text.en;
}

export type AchievementsPage = Awaited<ReturnType<typeof achievementsPage>>;

/** What /achievements shows: each achievement earned (with its date) or locked (hidden ones as "???"). */
export async function achievementsPage(userId: number, language: Language) {
  const { records, catalogue } = await evaluateAchievements(userId);
  const earned = new Map(records.earned.map((row) => [row.key, row.earnedAt]));
  return {
    total: catalogue.length,
    earnedCount: catalogue.filter((achievement) => earned.has(achievement.key)).length,
    items: catalogue.map((achievement) => {
      const earnedAt = earned.get(achievement.key);
      const secret = achievement.hidden && !earnedAt;
      return {
        key: achievement.key,
        category: achievement.category,
        icon: secret ? "❔" : achievement.icon,
        name: secret ? null : localized(achievement.name, language),
        description: secret ? null : localized(achievement.description, language),
        earnedAt: earnedAt?.toISOString() ?? null,
      };
    }),
  };
}
