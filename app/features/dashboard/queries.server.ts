import { type Achievement, evaluateAchievements, localized } from "~/features/achievements/queries.server";
import { readAhead, readAheadNumbers } from "~/features/chapters/access";
import type { PaymentItem } from "~/features/payments/item-name";
import { countsAsRead } from "~/features/reader/reading-rule";
import type { ReaderRecords } from "~/features/streaks/records.server";
import type { Language } from "~/i18n/config";
import { addDays, dayNumber } from "~/lib/local-time";

export const HEATMAP_WEEKS = 12;

/**
 * The reader's dashboard on /account (docs/product-rules.md "Dashboard"), from their records only: read in
 * a fixed number of queries whatever the number of chapters or days (tests/integration/dashboard.test.ts
 * counts them). Evaluating achievements here also awards those a reader's older history meets.
 */
export async function loadDashboard(userId: number, language: Language, now = new Date()) {
  return (await loadDashboardAndMembership(userId, language, now)).dashboard;
}

/** The dashboard and the membership its records gave (/account shows both; one read for the two). */
export async function loadDashboardAndMembership(userId: number, language: Language, now = new Date()) {
  const { records, catalogue } = await evaluateAchievements(userId, now);
  return { dashboard: dashboardOf(records, catalogue, language), membership: records.membership };
}

function dashboardOf(records: ReaderRecords, catalogue: Achievement[], language: Language) {
  const { catalog, streak, today, now } = records;
  const byId = new Map(catalog.published.map((chapter) => [chapter.id, chapter]));
  const seconds = new Map(records.days.map((day) => [day.day, day.seconds]));
  const completed = records.progress.filter((row) => row.completed && byId.has(row.chapterId));
  const sumDays = (from: number, to: number) => {
    let total = 0;
    for (let offset = from; offset <= to; offset++) total += seconds.get(addDays(today, -offset)) ?? 0;
    return total;
  };
  // Whole weeks ending with today's week (Monday first), oldest first: the heat map's columns.
  const weekday = (dayNumber(today) + 3) % 7; // 1970-01-01 was a Thursday; Monday is 0
  const firstDay = addDays(today, -weekday - 7 * (HEATMAP_WEEKS - 1));
  const heatmap = Array.from({ length: HEATMAP_WEEKS * 7 }, (_, index) => {
    const day = addDays(firstDay, index);
    return { day, seconds: day > today ? null : (seconds.get(day) ?? 0) };
  });
  const ahead = [...readAheadNumbers(catalog.published, now, readAhead[records.membership.tier])]
    .map((number) => catalog.byNumber.get(number))
    .filter((chapter) => chapter !== undefined)
    .map((chapter) => ({
      number: chapter.number,
      title: chapter.title,
      releaseAt: chapter.releaseAt.toISOString(),
    }));
  const paid = records.payments.filter((payment) => payment.status === "paid");
  const support = paid.filter((payment) => payment.kind === "subscription" || payment.kind === "gift");
  const names = new Map(catalogue.map((achievement) => [achievement.key, achievement]));
  const earnedCount = records.earned.filter((row) => names.has(row.key)).length;
  type Activity = {
    kind: "read" | "unlock" | "purchase" | "achievement";
    /** A chapter's title or an achievement's name; a purchase is named by `purchase`, in the reader's language. */
    label: string;
    purchase?: PaymentItem;
    href?: string;
    at: Date;
  };
  const activity: Activity[] = [
    ...records.progress
      // Only what counts as read (the reading rule), never a chapter merely opened.
      .filter((row) => byId.has(row.chapterId) && countsAsRead(row.readingTimeSeconds, row.completed))
      .map((row) => {
        const chapter = byId.get(row.chapterId);
        return {
          kind: "read" as const,
          label: chapter?.title ?? "",
          href: `/chapter/${chapter?.number}`,
          at: row.completedAt ?? row.lastReadAt,
        };
      }),
    ...records.unlocks.map((unlock) => ({
      kind: "unlock" as const,
      label: byId.get(unlock.chapterId)?.title ?? "",
      href: `/chapter/${byId.get(unlock.chapterId)?.number}`,
      at: unlock.createdAt,
    })),
    ...paid.map(({ kind, coins, tierKey, description, createdAt }) => ({
      kind: "purchase" as const,
      label: "",
      purchase: { kind, coins, tierKey, description },
      at: createdAt,
    })),
    ...records.earned.flatMap((row) => {
      const achievement = names.get(row.key);
      return achievement
        ? [
            {
              kind: "achievement" as const,
              label: `${achievement.icon} ${localized(achievement.name, language)}`,
              href: "/achievements",
              at: row.earnedAt,
            },
          ]
        : [];
    }),
  ];
  activity.sort((a, b) => b.at.getTime() - a.at.getTime());
  return {
    now: now.toISOString(),
    timeZone: records.timeZone,
    ahead,
    activity: {
      chaptersCompleted: completed.length,
      wordsRead: completed.reduce((sum, row) => sum + (byId.get(row.chapterId)?.wordCount ?? 0), 0),
      secondsRead: records.days.reduce((sum, day) => sum + day.seconds, 0),
      thisWeek: sumDays(0, 6),
      lastWeek: sumDays(7, 13),
      heatmap,
    },
    streak: {
      current: streak.current,
      longest: streak.longest,
      freezes: streak.freezes,
      next: streak.next,
    },
    stats: {
      memberSince: records.createdAt.toISOString(),
      chaptersUnlocked: records.unlocks.length,
      orders: paid.filter((payment) => payment.kind === "product").length,
      supporterSince: support.length ? (support[support.length - 1]?.createdAt.toISOString() ?? null) : null,
      achievements: { earned: earnedCount, total: catalogue.length },
    },
    recent: activity.slice(0, 8).map((item) => ({ ...item, at: item.at.toISOString() })),
  };
}

export type Dashboard = ReturnType<typeof dashboardOf>;
