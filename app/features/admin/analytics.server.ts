import { asc, eq, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, chapterUnlocks, readingProgress } from "#db/schema";

/** A reader has finished a chapter from this completion on (the "reached 98 %"). */
export const FINISHED_AT = 98;
/** The drop-off is counted in tenths of the chapter: 0–9 % is the first, 90–97 % the last. */
export const TENTHS = 10;

export type ChapterFigures = {
  id: number;
  number: number;
  title: string;
  /** Readers with a progress row on the chapter. */
  started: number;
  /** Of those, readers at FINISHED_AT % or more. */
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
};

const progress = readingProgress;

/**
 * The readers of the first chapter (by number): the funnel's base. A subquery of the aggregate, so the
 * funnel costs no statement of its own.
 */
function firstChapterReaders() {
  const first = sql`(select ${chapters.id} from ${chapters} order by ${chapters.number} limit 1)`;
  return db()
    .select({ userId: progress.userId })
    .from(progress)
    .where(sql`${progress.chapterId} = ${first}`)
    .as("first_readers");
}

/** One tenth's count among the readers who stopped before finishing. */
const stoppedIn = (tenth: number) =>
  sql`(count(*) filter (where ${progress.completionPercentage} < ${FINISHED_AT} and ${progress.completionPercentage} / ${TENTHS} = ${tenth}))::int`;

/**
 * Every figure of the chapters (all of them, or the one `chapterId`) in one statement: progress and unlocks
 * are each aggregated once per chapter in the database, whatever the number of chapters and readers
 * (ADR 42). Chapters without readers have zeros.
 */
export async function chapterAnalytics(chapterId?: number): Promise<ChapterFigures[]> {
  const firstReaders = firstChapterReaders();
  const onChapter = (column: typeof progress.chapterId | typeof chapterUnlocks.chapterId): SQL | undefined =>
    chapterId === undefined ? undefined : eq(column, chapterId);
  const perChapter = db()
    .select({
      chapterId: progress.chapterId,
      started: sql<number>`count(*)::int`.as("started"),
      finished:
        sql<number>`(count(*) filter (where ${progress.completionPercentage} >= ${FINISHED_AT}))::int`.as(
          "finished",
        ),
      averageSeconds: sql<number>`round(avg(${progress.readingTimeSeconds}))::int`.as("average_seconds"),
      reached: sql<number>`count(${firstReaders.userId})::int`.as("reached"),
      dropOff: sql<number[]>`array[${sql.join(
        Array.from({ length: TENTHS }, (_, tenth) => stoppedIn(tenth)),
        sql`, `,
      )}]`.as("drop_off"),
    })
    .from(progress)
    .leftJoin(firstReaders, eq(firstReaders.userId, progress.userId))
    .where(onChapter(progress.chapterId))
    .groupBy(progress.chapterId)
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
    })
    .from(chapters)
    .leftJoin(perChapter, eq(perChapter.chapterId, chapters.id))
    .leftJoin(unlocked, eq(unlocked.chapterId, chapters.id))
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
    funnel: all.map((chapter) => ({ number: chapter.number, reached: chapter.reached })),
  };
}
