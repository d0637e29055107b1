import { tierRank } from "~/features/membership/tiers";
import type { ReaderRecords } from "~/features/streaks/records.server";
import type { AchievementRule } from "./rule-names";

/** The figures the rules compare with their thresholds, from one reader's records. */
export type AchievementFacts = Record<AchievementRule, number> & { volumesCompleted: Set<number> };

type FactsInput = Pick<
  ReaderRecords,
  | "days"
  | "progress"
  | "unlocks"
  | "payments"
  | "settingsChanged"
  | "membership"
  | "catalog"
  | "streak"
  | "now"
>;

const hourOf = (local: string | null) => (local ? Number(local.slice(11, 13)) : -1);

export function achievementFacts(records: FactsInput): AchievementFacts {
  const byId = new Map(records.catalog.published.map((chapter) => [chapter.id, chapter]));
  const completed = records.progress.filter((row) => row.completed && byId.has(row.chapterId));
  const completedIds = new Set(completed.map((row) => row.chapterId));
  const released = records.catalog.published.filter((c) => c.releaseAt.getTime() <= records.now.getTime());
  // A volume is completed when none of its released chapters is left unread.
  const volumesReleased = new Set<number>();
  const volumesLeft = new Set<number>();
  for (const chapter of released) {
    volumesReleased.add(chapter.volume.number);
    if (!completedIds.has(chapter.id)) volumesLeft.add(chapter.volume.number);
  }
  const volumesCompleted = new Set([...volumesReleased].filter((volume) => !volumesLeft.has(volume)));
  const perDay = new Map<string, number>();
  for (const row of completed) {
    const day = row.completedLocal?.slice(0, 10);
    if (day) perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const paid = (kinds: string[]) =>
    records.payments.filter((payment) => payment.status === "paid" && kinds.includes(payment.kind)).length;
  const seconds = records.days.reduce((sum, day) => sum + day.seconds, 0);
  return {
    chapters_completed: completed.length,
    volume_completed: volumesCompleted.size,
    all_released: released.length > 0 && volumesLeft.size === 0 ? 1 : 0,
    streak: records.streak.longest,
    reading_days: records.streak.readingDays,
    hours_read: Math.floor(seconds / 3600),
    words_read: completed.reduce((sum, row) => sum + (byId.get(row.chapterId)?.wordCount ?? 0), 0),
    unlocks: records.unlocks.length,
    coin_pack: paid(["coins"]),
    order: paid(["product"]),
    supporter: paid(["subscription", "gift"]),
    tier: tierRank(records.membership.tier),
    bookmark: records.progress.filter((row) => row.bookmarks > 0).length,
    night_reader: completed.filter((row) => hourOf(row.completedLocal) >= 0 && hourOf(row.completedLocal) < 4)
      .length,
    early_bird: completed.filter((row) => hourOf(row.completedLocal) >= 5 && hourOf(row.completedLocal) < 7)
      .length,
    settings_changed: records.settingsChanged ? 1 : 0,
    languages: new Set(records.days.flatMap((day) => day.languages)).size,
    freeze_spent: records.streak.freezesSpent,
    read_ahead: completed.filter(
      (row) =>
        row.completedAt && row.completedAt.getTime() < (byId.get(row.chapterId)?.releaseAt.getTime() ?? 0),
    ).length,
    long_day: Math.floor(Math.max(0, ...records.days.map((day) => day.seconds)) / 60),
    chapters_in_a_day: Math.max(0, ...perDay.values()),
    volumesCompleted,
  };
}

export type AchievementDefinition = { key: string; rule: string; threshold: number | null };

/** Whether the facts meet an achievement; volume_completed's threshold names the volume. */
export function meets(definition: AchievementDefinition, facts: AchievementFacts): boolean {
  const threshold = definition.threshold ?? 1;
  if (definition.rule === "volume_completed") return facts.volumesCompleted.has(threshold);
  const figure = facts[definition.rule as AchievementRule];
  return typeof figure === "number" && figure >= threshold;
}

/**
 * The achievements that apply to the serial as it is: a volume's only while that volume exists (it has a
 * published chapter), so "Volume Three Complete" is not offered before there is a volume 3. One already
 * earned stays listed.
 */
export function applicableAchievements<T extends AchievementDefinition>(
  catalogue: T[],
  volumes: ReadonlySet<number>,
  held: ReadonlySet<string>,
): T[] {
  return catalogue.filter(
    (achievement) =>
      achievement.rule !== "volume_completed" ||
      held.has(achievement.key) ||
      volumes.has(achievement.threshold ?? 1),
  );
}
