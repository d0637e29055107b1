import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks, chapterVisitorDays, readingProgress } from "#db/schema";
import { READ_SECONDS } from "~/features/reader/reading-rule";

/** The drop-off is counted in tenths of the chapter: 0–9 % is the first, 90–97 % the last. */
export const TENTHS = 10;

export type ChapterFigures = {
  id: number;
  number: number;
  title: string;
  /** Readers for whom the chapter counts as read (the reading rule: features/reader/reading-rule.ts). */
  started: number;
  /** Of those, readers for whom it counts as completed. */
  finished: number;
  /** finished / started, 0 when nobody started. */
  completionRate: number;
  /** Mean reading time of the readers who started, in whole seconds. */
  averageSeconds: number;
  /** Readers who started the first chapter and also started this one (the funnel). */
  reached: number;
  /** For readers who did not finish: how many stopped in each tenth of the chapter. */
  dropOff: number[];
  unlocks: number;
  coins: number;
  /** Visitors' views of the chapter that counted as read, and as completed (chapter_visitor_days: ADR 58). */
  visitorsStarted: number;
  visitorsFinished: number;
};

const progress = readingProgress;

/**
 * The progress rows that count as read under the reading rule (`countsAsRead`): a chapter only opened, or
 * scrolled through faster than it can be read, is neither started nor finished here.
 */
const countsAsRead = sql`(${progress.completed} or ${progress.readingTimeSeconds} >= ${READ_SECONDS})`;

/**
 * The readers of the first chapter (by number): the funnel's base. A subquery of the aggregate, so the
 * funnel costs no statement of its own.
 */
function firstChapterReaders() {
  const first = sql`(select ${chapters.id} from ${chapters} order by ${chapters.number} limit 1)`;
  return db()
    .select({ userId: progress.userId })
    .from(progress)
    .where(sql`${progress.chapterId} = ${first} and ${countsAsRead}`)
    .as("first_readers");
}

/**
 * Where a reader is in a chapter: the tenth they stopped in (0–9), or TENTHS when it counts as completed
 * (one scrolled to the end too fast for its length stopped in the last tenth).
 */
const tenthOf = sql`case when ${progress.completed} then ${TENTHS}
  else least(${TENTHS - 1}, ${progress.completionPercentage} / ${TENTHS}) end`;

/**
 * Every figure of the chapters (all of them, or the one `chapterId`) in one statement, whatever the number of
 * chapters and readers (ADR 42). The progress rows are grouped once by chapter and tenth (a few aggregates per
 * row: a fifth faster on PGlite than a dozen filtered counts), then the at most eleven groups of each
 * chapter are summed. Chapters without readers have zeros.
 */
export async function chapterAnalytics(chapterId?: number): Promise<ChapterFigures[]> {
  const firstReaders = firstChapterReaders();
  const onChapter = (
    column: typeof progress.chapterId | typeof chapterUnlocks.chapterId | typeof chapterVisitorDays.chapterId,
  ): SQL | undefined => (chapterId === undefined ? undefined : eq(column, chapterId));
  const byTenth = db()
    .select({
      chapterId: progress.chapterId,
      tenth: sql<number>`${tenthOf}`.as("tenth"),
      readers: sql<number>`count(*)`.as("readers"),
      seconds: sql<number>`sum(${progress.readingTimeSeconds})`.as("seconds"),
      reached: sql<number>`count(${firstReaders.userId})`.as("reached"),
    })
    .from(progress)
    .leftJoin(firstReaders, eq(firstReaders.userId, progress.userId))
    .where(and(onChapter(progress.chapterId), countsAsRead))
    .groupBy(progress.chapterId, sql`${sql.identifier("tenth")}`)
    .as("by_tenth");
  const readersIn = (tenth: number) =>
    sql`coalesce(sum(${byTenth.readers}) filter (where ${byTenth.tenth} = ${tenth}), 0)::int`;
  const perChapter = db()
    .select({
      chapterId: byTenth.chapterId,
      started: sql<number>`sum(${byTenth.readers})::int`.as("started"),
      finished: sql<number>`${readersIn(TENTHS)}`.as("finished"),
      averageSeconds: sql<number>`round(sum(${byTenth.seconds}) / sum(${byTenth.readers}))::int`.as(
        "average_seconds",
      ),
      reached: sql<number>`sum(${byTenth.reached})::int`.as("reached"),
      dropOff: sql<number[]>`array[${sql.join(
        Array.from({ length: TENTHS }, (_, tenth) => readersIn(tenth)),
        sql`, `,
      )}]`.as("drop_off"),
    })
    .from(byTenth)
    .groupBy(byTenth.chapterId)
    .as("per_chapter");
  const unlocked = db()
    .select({
      chapterId: chapterUnlocks.chapterId,
      unlocks: sql<number>`count(*)::int`.as("unlocks"),
      // bigint: a popular chapter's coins may pass an int4.
      coins: sql<string>`sum(${chapterUnlocks.coinsSpent})`.as("coins"),
    })
    .from(chapterUnlocks)
    .where(onChapter(chapterUnlocks.chapterId))
    .groupBy(chapterUnlocks.chapterId)
    .as("unlocked");
  const visitors = db()
    .select({
      chapterId: chapterVisitorDays.chapterId,
      started: sql<string>`sum(${chapterVisitorDays.started})`.as("visitors_started"),
      completed: sql<string>`sum(${chapterVisitorDays.completed})`.as("visitors_completed"),
    })
    .from(chapterVisitorDays)
    .where(onChapter(chapterVisitorDays.chapterId))
    .groupBy(chapterVisitorDays.chapterId)
    .as("visitors");
  const rows = await db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      started: perChapter.started,
      finished: perChapter.finished,
      averageSeconds: perChapter.averageSeconds,
      reached: perChapter.reached,
      dropOff: perChapter.dropOff,
      unlocks: unlocked.unlocks,
      coins: unlocked.coins,
      visitorsStarted: visitors.started,
      visitorsFinished: visitors.completed,
    })
    .from(chapters)
    .leftJoin(perChapter, eq(perChapter.chapterId, chapters.id))
    .leftJoin(unlocked, eq(unlocked.chapterId, chapters.id))
    .leftJoin(visitors, eq(visitors.chapterId, chapters.id))
    .where(chapterId === undefined ? undefined : eq(chapters.id, chapterId))
    .orderBy(asc(chapters.number));
  return rows.map((row) => {
    const started = row.started ?? 0;
    const finished = row.finished ?? 0;
    return {
      id: row.id,
      number: row.number,
      title: row.title,
      started,
      finished,
      completionRate: started ? finished / started : 0,
      averageSeconds: row.averageSeconds ?? 0,
      reached: row.reached ?? 0,
      dropOff: row.dropOff ?? Array<number>(TENTHS).fill(0),
      unlocks: row.unlocks ?? 0,
      coins: Number(row.coins ?? 0),
      visitorsStarted: Number(row.visitorsStarted ?? 0),
      visitorsFinished: Number(row.visitorsFinished ?? 0),
    };
  });
}

export const analyticsSorts = [
  "number",
  "started",
  "finished",
  "completionRate",
  "averageSeconds",
  "reached",
  "unlocks",
  "coins",
  "visitorsStarted",
  "visitorsFinished",
] as const;
export type AnalyticsSort = (typeof analyticsSorts)[number];

export const ANALYTICS_PAGE = 50;

/**
 * The analytics page: one page of chapters in the order asked (ties by number), and the funnel over all of
 * them. Sorted here, not in SQL: the funnel needs every chapter's row anyway, and a serial has chapters in
 * the thousands at most.
 */
export async function analyticsOverview(view: { sort: AnalyticsSort; descending: boolean; page: number }) {
  const all = await chapterAnalytics();
  const direction = view.descending ? -1 : 1;
  const sorted = all.toSorted((a, b) => direction * (a[view.sort] - b[view.sort]) || a.number - b.number);
  const pages = Math.max(1, Math.ceil(all.length / ANALYTICS_PAGE));
  const page = Math.min(view.page, pages);
  return {
    chapters: sorted.slice((page - 1) * ANALYTICS_PAGE, page * ANALYTICS_PAGE),
    page,
    pages,
    total: all.length,
    firstReaders: all[0]?.started ?? 0,
    firstVisitors: { started: all[0]?.visitorsStarted ?? 0, finished: all[0]?.visitorsFinished ?? 0 },
    funnel: all.map((chapter) => ({ number: chapter.number, reached: chapter.reached })),
  };
}
