import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, commentBans, commentHearts, comments, users } from "#db/schema";
import type { SessionUser } from "~/features/auth/session.server";
import { chapterLock, findChapter } from "~/features/reader/access.server";
import { currentComments, memoByRevision } from "~/features/site/revision.server";
import { COMMENT_LIMITS, type CommentOrder } from "./limits";
import type { CommentsPage, CommentView, CommentViewer } from "./types";

/**
 * Whether `user` may read (and so post to) chapter `number`'s comments: the chapter page's rule, the same
 * function (a locked chapter's comments are as locked as its text). A draft is unknown to readers.
 */
export async function commentAccess(
  number: number,
  user: SessionUser | undefined,
): Promise<{ ok: true; chapterId: number; title: string } | { ok: false; reason: "notFound" | "locked" }> {
  const chapter = await findChapter(number, user);
  if (!chapter) return { ok: false, reason: "notFound" };
  if (await chapterLock(chapter, user)) return { ok: false, reason: "locked" };
  return { ok: true, chapterId: chapter.id, title: chapter.title };
}

/** Top-level comments a page shows: visible ones, and ones deleted by their writer that keep replies. */
const shownTopLevel = (chapterId: number) =>
  and(
    eq(comments.chapterId, chapterId),
    isNull(comments.parentId),
    sql`(${comments.status} = 'visible' or (${comments.status} = 'deleted' and exists (
      select 1 from ${comments} as reply where reply.parent_id = ${comments.id} and reply.status = 'visible')))`,
  );

const columns = {
  id: comments.id,
  parentId: comments.parentId,
  userId: comments.userId,
  writer: users.username,
  role: users.role,
  bodyMd: comments.bodyMd,
  bodyHtml: comments.bodyHtml,
  spoiler: comments.spoiler,
  status: comments.status,
  hearts: comments.hearts,
  createdAt: comments.createdAt,
  editedAt: comments.editedAt,
};

type Row = {
  id: number;
  parentId: number | null;
  userId: number;
  writer: string;
  role: "reader" | "author";
  bodyMd: string;
  bodyHtml: string;
  spoiler: boolean;
  status: "visible" | "hidden" | "deleted";
  hearts: number;
  createdAt: Date;
  editedAt: Date | null;
};

/** Whether a comment's writer may still change it at `now`. */
export function editable(createdAt: Date, now = new Date()): boolean {
  return now.getTime() - createdAt.getTime() < COMMENT_LIMITS.editMinutes * 60_000;
}

function view(row: Row, viewerId: number | undefined, hearted: Set<number>, now: Date): CommentView {
  const deleted = row.status === "deleted";
  const mine = row.userId === viewerId;
  return {
    id: row.id,
    parentId: row.parentId,
    writer: row.writer,
    byAuthor: row.role === "author",
    html: deleted ? "" : row.bodyHtml,
    spoiler: row.spoiler,
    deleted,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    hearts: row.hearts,
    hearted: hearted.has(row.id),
    mine,
    ...(mine && !deleted && editable(row.createdAt, now) ? { editableMd: row.bodyMd } : {}),
    replies: [],
  };
}

/**
 * One page of a chapter's comments (30 top-level ones, newest or oldest first, each with its visible
 * replies, oldest first), the chapter's count, and what the viewer may do. Three statements and one for the
 * viewer's hearts; nothing personal when `user` is undefined, so a visitor's page can be kept and shared.
 */
export async function listComments(
  chapter: { id: number; number: number; title: string },
  query: { order: CommentOrder; page: number },
  user: SessionUser | undefined,
  now = new Date(),
): Promise<CommentsPage> {
  const order =
    query.order === "newest"
      ? [desc(comments.createdAt), desc(comments.id)]
      : [asc(comments.createdAt), asc(comments.id)];
  const [[totals], [tops], top, banned] = await Promise.all([
    db()
      .select({ total: count() })
      .from(comments)
      .where(and(eq(comments.chapterId, chapter.id), eq(comments.status, "visible"))),
    db().select({ n: count() }).from(comments).where(shownTopLevel(chapter.id)),
    db()
      .select(columns)
      .from(comments)
      .innerJoin(users, eq(users.id, comments.userId))
      .where(shownTopLevel(chapter.id))
      .orderBy(...order)
      .limit(COMMENT_LIMITS.pageSize)
      .offset((query.page - 1) * COMMENT_LIMITS.pageSize),
    user ? isBanned(user.id) : Promise.resolve(false),
  ]);
  const replies = top.length
    ? await db()
        .select(columns)
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(
          and(
            inArray(
              comments.parentId,
              top.map((row) => row.id),
            ),
            eq(comments.status, "visible"),
          ),
        )
        .orderBy(asc(comments.createdAt), asc(comments.id))
    : [];
  const ids = [...top, ...replies].map((row) => row.id);
  const hearted = new Set(
    user && ids.length
      ? (
          await db()
            .select({ id: commentHearts.commentId })
            .from(commentHearts)
            .where(and(eq(commentHearts.userId, user.id), inArray(commentHearts.commentId, ids)))
        ).map((row) => row.id)
      : [],
  );
  const views = top.map((row) => view(row, user?.id, hearted, now));
  const byId = new Map(views.map((comment) => [comment.id, comment]));
  for (const row of replies) byId.get(row.parentId ?? 0)?.replies.push(view(row, user?.id, hearted, now));
  const viewer: CommentViewer = user
    ? { signedIn: true, banned, author: user.role === "author", username: user.username }
    : { signedIn: false };
  return {
    chapter: { number: chapter.number, title: chapter.title },
    comments: views,
    total: totals?.total ?? 0,
    order: query.order,
    page: query.page,
    pages: Math.max(1, Math.ceil((tops?.n ?? 0) / COMMENT_LIMITS.pageSize)),
    viewer,
  };
}

export async function isBanned(userId: number): Promise<boolean> {
  const [row] = await db()
    .select({ userId: commentBans.userId })
    .from(commentBans)
    .where(eq(commentBans.userId, userId));
  return Boolean(row);
}

/**
 * Visible comments (and replies) of every chapter that has any, by chapter number: the table of contents'
 * counts. One aggregate over an index, the same for every reader: read once until the content or the
 * comments revision moves (ADR 71), as the visitors' kept table of contents is (ADR 47).
 */
export const commentCounts = memoByRevision(async (): Promise<Record<number, number>> => {
  const rows = await db()
    .select({ number: chapters.number, n: count() })
    .from(comments)
    .innerJoin(chapters, eq(chapters.id, comments.chapterId))
    .where(eq(comments.status, "visible"))
    .groupBy(chapters.number);
  return Object.fromEntries(rows.map((row) => [row.number, row.n]));
}, currentComments);
