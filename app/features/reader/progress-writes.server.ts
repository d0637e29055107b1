import { asc, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { readingDays, readingProgress } from "#db/schema";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { READING_DAY_SECONDS } from "~/features/streaks/streaks";
import type { Language } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";
import { localDateTime } from "~/lib/local-time";
import { type ChapterProgress, COMPLETION_THRESHOLD } from "./progress";
import { mergeProgress } from "./progress-merge";
import { countReading, countsAsCompleted } from "./reading-rule";

/**
 * Signed-in readers' progress writes, coalesced (ADR 67): the writes that arrive while a batch is being
 * written wait and go together in the next, one transaction of a few statements for many readers, instead
 * of a transaction each. An idle server starts a batch at the end of the event loop's turn (ADR 106): the
 * writes whose requests arrived in the same turn go with it, and nothing waits for a timer. A write
 * is answered only once its batch has committed, so whatever was acknowledged is in the database; a batch
 * that fails fails each of its writes (a database outage answers 503 to each, server/database-outage.ts).
 * Each write keeps its own rules and time: a batch computes, write by write in arrival order, what saving
 * them one after another computed (the reading rule, ADR 58), so two writes of one reader in one batch add
 * up as they would have.
 */

/** Where and how a write happened: the reader's time zone (IANA, valid) and interface language. */
export type ReadingContext = { timeZone: string; language: Language };

/** What a write changed that may earn an achievement. */
export type ProgressChange = { completed: boolean; readingDay: boolean; bookmarked: boolean };

type Row = typeof readingProgress.$inferSelect;

type Write = {
  userId: number;
  /** The chapter's number: found in the catalog when its batch is written. */
  number: number;
  incoming: ChapterProgress;
  now: Date;
  context: ReadingContext;
  done: (change: ProgressChange | undefined) => void;
  failed: (error: unknown) => void;
};

const waiting: Write[] = [];
let writing: Promise<void> | undefined;

/**
 * Queues one write for the next batch, in the order of the calls; resolves once that batch has committed
 * (undefined for a chapter that does not exist).
 */
export function queueProgressWrite(
  write: Omit<Write, "done" | "failed">,
): Promise<ProgressChange | undefined> {
  return new Promise((done, failed) => {
    waiting.push({ ...write, done, failed });
    // Not at once: on PGlite a whole batch runs without the event loop reading a socket (its statements
    // answer in microtasks), so the requests that arrived meanwhile would only queue after it, one batch each.
    writing ??= new Promise<void>((turn) => setImmediate(turn)).then(writeWaiting);
  });
}

/** Resolves once every write queued so far is written (or failed): the shutdown waits for it. */
export async function settleProgressWrites(): Promise<void> {
  while (writing) await writing;
}

async function writeWaiting(): Promise<void> {
  while (waiting.length > 0) {
    const batch = waiting.splice(0, getEnv().PROGRESS_BATCH_MAX);
    try {
      const changes = await writeBatch(batch);
      for (const [index, write] of batch.entries()) write.done(changes[index]);
    } catch (error) {
      for (const write of batch) write.failed(error);
    }
  }
  writing = undefined;
}

const key = (userId: number, chapterId: number) => `${userId} ${chapterId}`;

/**
 * One write applied to the row as it stands (undefined: none yet), under the reading rule: the record merged
 * with what the server has (another device may be further on); its reading time counted only as far as the
 * server's clock allows; completed only with the counted reading the chapter's length needs; the time and
 * local time of a first completion.
 */
function applyWrite(existing: Row | undefined, write: Write, chapter: { id: number; wordCount: number }) {
  const { incoming, now } = write;
  const merged = existing ? mergeProgress(toProgress(existing), incoming) : incoming;
  const counted = existing?.readingTimeSeconds ?? 0;
  const count = countReading(incoming.readingTime, counted, existing?.countedAt?.getTime(), now.getTime());
  const readingTime = counted + count.seconds;
  // Scrolled to the end now or before (the kept percentage), though maybe not completed then.
  const reachedEnd = incoming.completed || (existing?.completionPercentage ?? 0) >= COMPLETION_THRESHOLD;
  const completed =
    Boolean(existing?.completed) || countsAsCompleted(reachedEnd, readingTime, chapter.wordCount);
  const local = localDateTime(now, write.context.timeZone);
  const completedNow = completed && !existing?.completed;
  const row: Row = {
    userId: write.userId,
    chapterId: chapter.id,
    scrollPosition: merged.scrollPosition,
    paragraph: merged.paragraph,
    completionPercentage: merged.completionPercentage,
    readingTimeSeconds: readingTime,
    completed,
    bookmarks: merged.bookmarks,
    lastReadAt: new Date(merged.lastReadAt),
    countedAt: new Date(count.countedAt),
    completedAt: completedNow ? now : (existing?.completedAt ?? null),
    completedLocal: completedNow ? local : (existing?.completedLocal ?? null),
  };
  return {
    row,
    added: count.seconds,
    day: local.slice(0, 10),
    completedNow,
    bookmarked: merged.bookmarks.length > (existing?.bookmarks.length ?? 0),
  };
}

/**
 * A stored row as the reader's record (the browser's shape): `completed` there is the reader's place, the end
 * reached (98 %), as in browser storage; the row's `completed` is what the reading rule counts (ADR 58).
 */
export const toProgress = (row: Row): ChapterProgress => ({
  scrollPosition: row.scrollPosition,
  paragraph: row.paragraph,
  completionPercentage: row.completionPercentage,
  readingTime: row.readingTimeSeconds,
  completed: row.completed || row.completionPercentage >= COMPLETION_THRESHOLD,
  bookmarks: row.bookmarks,
  lastReadAt: row.lastReadAt.toISOString(),
});

/**
 * Writes a batch in one transaction: the rows it touches read and locked in one statement, each write applied
 * in order in memory, then one upsert of the progress rows, one of the reading days and one update of the
 * readers' newest reading day. Rows are locked in key order, so batches of several instances on one
 * PostgreSQL database wait for each other rather than deadlock.
 */
async function writeBatch(batch: Write[]): Promise<(ProgressChange | undefined)[]> {
  const catalog = (await getChapterCatalog()).byNumber;
  const known = batch.flatMap((write) => {
    const chapter = catalog.get(write.number);
    return chapter ? [{ write, chapter }] : [];
  });
  if (known.length === 0) return batch.map(() => undefined);
  const pairs = [...new Map(known.map((w) => [key(w.write.userId, w.chapter.id), w] as const)).values()];
  return db().transaction(async (tx) => {
    const found = await tx
      .select()
      .from(readingProgress)
      .where(
        sql`(${readingProgress.userId}, ${readingProgress.chapterId}) in (${sql.join(
          pairs.map((w) => sql`(${w.write.userId}::integer, ${w.chapter.id}::integer)`),
          sql`, `,
        )})`,
      )
      .orderBy(asc(readingProgress.userId), asc(readingProgress.chapterId))
      .for("update");
    const rows = new Map<string, Row>(found.map((row) => [key(row.userId, row.chapterId), row]));
    const days = new Map<string, { userId: number; day: string; seconds: number; languages: Language[] }>();
    const applied = known.map(({ write, chapter }) => {
      const rowKey = key(write.userId, chapter.id);
      const result = applyWrite(rows.get(rowKey), write, chapter);
      rows.set(rowKey, result.row);
      if (result.added > 0) {
        const dayKey = `${write.userId} ${result.day}`;
        const day = days.get(dayKey) ?? { userId: write.userId, day: result.day, seconds: 0, languages: [] };
        day.seconds += result.added;
        if (!day.languages.includes(write.context.language)) day.languages.push(write.context.language);
        days.set(dayKey, day);
      }
      return result;
    });
    const written = [...rows.values()].sort((a, b) => a.userId - b.userId || a.chapterId - b.chapterId);
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    await tx
      .insert(readingProgress)
      .values(written)
      .onConflictDoUpdate({
        target: [readingProgress.userId, readingProgress.chapterId],
        set: {
          scrollPosition: excluded("scroll_position"),
          paragraph: excluded("paragraph"),
          completionPercentage: excluded("completion_percentage"),
          readingTimeSeconds: excluded("reading_time_seconds"),
          completed: excluded("completed"),
          bookmarks: excluded("bookmarks"),
          lastReadAt: excluded("last_read_at"),
          countedAt: excluded("counted_at"),
          // A row another instance made meanwhile keeps its first completion.
          completedAt: sql`coalesce(excluded.completed_at, ${readingProgress.completedAt})`,
          completedLocal: sql`coalesce(excluded.completed_local, ${readingProgress.completedLocal})`,
        },
      });
    const dayRows = [...days.values()].sort((a, b) => a.userId - b.userId || a.day.localeCompare(b.day));
    // Each reading day's seconds after the batch, to tell which write crossed the reading-day threshold.
    const after = new Map<string, number>();
    if (dayRows.length > 0) {
      const totals = await tx
        .insert(readingDays)
        .values(dayRows.map((day) => ({ ...day, seconds: Math.min(86_400, day.seconds) })))
        .onConflictDoUpdate({
          target: [readingDays.userId, readingDays.day],
          set: {
            seconds: sql`least(86400, ${readingDays.seconds} + excluded.seconds)`,
            // The batch's new languages of that day, after the ones it had, in the order they came.
            languages: sql`${readingDays.languages} || array(select l from unnest(excluded.languages) with ordinality as t(l, n) where l <> all(${readingDays.languages}) order by n)`,
          },
        })
        .returning({ userId: readingDays.userId, day: readingDays.day, seconds: readingDays.seconds });
      for (const total of totals) after.set(`${total.userId} ${total.day}`, total.seconds);
      // The readers' newest reading day, for the overview's counts (only a newer day writes the row), locked
      // in id order.
      const newest = new Map<number, string>();
      for (const day of dayRows)
        if (day.day > (newest.get(day.userId) ?? "")) newest.set(day.userId, day.day);
      const values = sql.join(
        [...newest].map(([id, day]) => sql`(${id}::integer, ${day}::date)`),
        sql`, `,
      );
      await tx.execute(sql`
        with v(id, day) as (values ${values}),
        behind as (
          select u.id from users u join v on v.id = u.id
          where u.last_read_on is null or u.last_read_on < v.day order by u.id for update of u
        )
        update users set last_read_on = v.day from v
        where users.id = v.id and users.id in (select id from behind)`);
    }
    // Crossing the reading-day threshold (or a new language) may move a streak: the running total of each
    // day, from what it had before the batch, write by write.
    const running = new Map<string, number>();
    for (const day of dayRows) {
      const dayKey = `${day.userId} ${day.day}`;
      running.set(dayKey, (after.get(dayKey) ?? 0) - day.seconds);
    }
    const changes = new Map<Write, ProgressChange>();
    for (const [index, result] of applied.entries()) {
      const write = known[index]?.write as Write;
      let readingDay = false;
      if (result.added > 0) {
        const dayKey = `${write.userId} ${result.day}`;
        const before = running.get(dayKey) ?? 0;
        const now = Math.min(86_400, before + result.added);
        running.set(dayKey, now);
        readingDay = now >= READING_DAY_SECONDS && before < READING_DAY_SECONDS;
      }
      changes.set(write, { completed: result.completedNow, readingDay, bookmarked: result.bookmarked });
    }
    return batch.map((write) => changes.get(write));
  });
}
