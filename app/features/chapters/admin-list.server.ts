import { and, asc, count, eq, gt, ilike, lte, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, users, volumes } from "#db/schema";
import { releaseTime } from "~/lib/clock.server";

/** A chapter as the admin sees it: draft, scheduled (published, release ahead) or published. */
export type AdminChapterStatus = "draft" | "scheduled" | "published";

export const ADMIN_CHAPTERS_PAGE = 50;

const statusOf = (row: { status: "draft" | "published"; releaseAt: Date }, now: Date): AdminChapterStatus =>
  row.status === "draft" ? "draft" : row.releaseAt > now ? "scheduled" : "published";

/** Filters of the admin's chapter list; every one optional. */
export type ChapterFilter = { status?: AdminChapterStatus; volume?: number; q?: string; page?: number };

/** One page of the chapter list, by number, with the filters applied in SQL (the serial may be long). */
export async function listAdminChapters(filter: ChapterFilter, now = releaseTime()) {
  const conditions: SQL[] = [];
  if (filter.status === "draft") conditions.push(eq(chapters.status, "draft"));
  if (filter.status === "scheduled")
    conditions.push(and(eq(chapters.status, "published"), gt(chapters.releaseAt, now)) as SQL);
  if (filter.status === "published")
    conditions.push(and(eq(chapters.status, "published"), lte(chapters.releaseAt, now)) as SQL);
  if (filter.volume) conditions.push(eq(volumes.number, filter.volume));
  if (filter.q) conditions.push(ilike(chapters.title, `%${filter.q.replace(/[\\%_]/g, "\\$&")}%`));
  const where = conditions.length ? and(...conditions) : undefined;
  const page = Math.max(1, filter.page ?? 1);
  const [rows, [total]] = await Promise.all([
    db()
      .select({
        id: chapters.id,
        number: chapters.number,
        title: chapters.title,
        volume: volumes.number,
        status: chapters.status,
        releaseAt: chapters.releaseAt,
        coinsRequired: chapters.coinsRequired,
        wordCount: chapters.wordCount,
        updatedAt: chapters.updatedAt,
      })
      .from(chapters)
      .innerJoin(volumes, eq(volumes.id, chapters.volumeId))
      .where(where)
      .orderBy(asc(chapters.number))
      .limit(ADMIN_CHAPTERS_PAGE)
      .offset((page - 1) * ADMIN_CHAPTERS_PAGE),
    db()
      .select({ count: count() })
      .from(chapters)
      .innerJoin(volumes, eq(volumes.id, chapters.volumeId))
      .where(where),
  ]);
  return {
    total: total?.count ?? 0,
    page,
    pages: Math.max(1, Math.ceil((total?.count ?? 0) / ADMIN_CHAPTERS_PAGE)),
    chapters: rows.map((row) => ({
      ...row,
      status: statusOf(row, now),
      releaseAt: row.releaseAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

/** The volumes, for the list's filter. */
export function listVolumes() {
  return db()
    .select({ number: volumes.number, title: volumes.title })
    .from(volumes)
    .orderBy(asc(volumes.number));
}

/** The admin's overview: chapters by status, readers, and the next releases. */
export async function adminOverview(now = releaseTime()) {
  const [byStatus, [readers], upcoming] = await Promise.all([
    db()
      .select({
        draft: sql<number>`count(*) filter (where ${chapters.status} = 'draft')`.mapWith(Number),
        scheduled:
          sql<number>`count(*) filter (where ${chapters.status} = 'published' and ${chapters.releaseAt} > ${now})`.mapWith(
            Number,
          ),
        published:
          sql<number>`count(*) filter (where ${chapters.status} = 'published' and ${chapters.releaseAt} <= ${now})`.mapWith(
            Number,
          ),
      })
      .from(chapters),
    db().select({ count: count() }).from(users),
    db()
      .select({ number: chapters.number, title: chapters.title, releaseAt: chapters.releaseAt })
      .from(chapters)
      .where(and(eq(chapters.status, "published"), gt(chapters.releaseAt, now)))
      .orderBy(asc(chapters.releaseAt))
      .limit(10),
  ]);
  return {
    chapters: byStatus[0] ?? { draft: 0, scheduled: 0, published: 0 },
    readers: readers?.count ?? 0,
    upcoming: upcoming.map((row) => ({ ...row, releaseAt: row.releaseAt.toISOString() })),
  };
}
