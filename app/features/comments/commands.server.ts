import { and, count, eq, gt, isNull, min, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { commentBans, commentHearts, commentReports, comments, users } from "#db/schema";
import type { SessionUser } from "~/features/auth/session.server";
import { renderCommentMarkdown } from "~/features/content/markdown.server";
import { COMMENT_LIMITS } from "./limits";
import { editable } from "./queries.server";

/** Why a comment command was refused: each a message in the `comments.errors` catalogue. */
export type CommentRefusal =
  | "banned"
  | "unconfirmed"
  | "rateLimited"
  | "linksTooSoon"
  | "parentGone"
  | "notFound"
  | "editWindow"
  | "ownComment";

export type CommentOutcome =
  | { ok: true; id: number }
  | { ok: false; reason: CommentRefusal; retryAfterSeconds?: number };

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

const hasLink = (html: string) => /<a href=/.test(html);

/** An account younger than a day may not post links (an author may). */
function linkTooSoon(html: string, account: { role: string; createdAt: Date }, now: Date): boolean {
  const age = now.getTime() - account.createdAt.getTime();
  return account.role !== "author" && hasLink(html) && age < COMMENT_LIMITS.linkAfterHours * 3_600_000;
}

/**
 * The writer's account, its row locked (one writer's posts queue behind each other, on every instance), or
 * why they may not write: an account gone, an e-mail address not confirmed yet (ADR 56: a public post needs
 * an address its writer has shown is theirs), or barred from commenting.
 */
async function writer(
  tx: Tx,
  userId: number,
): Promise<{ role: string; createdAt: Date } | { refused: CommentRefusal }> {
  const [account] = await tx
    .select({ role: users.role, createdAt: users.createdAt, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!account) return { refused: "notFound" };
  if (account.emailConfirmedAt === null && account.role !== "author") return { refused: "unconfirmed" };
  const [ban] = await tx
    .select({ id: commentBans.userId })
    .from(commentBans)
    .where(eq(commentBans.userId, userId));
  return ban ? { refused: "banned" } : account;
}

/**
 * Posts a comment on a chapter the reader may read (the caller checked it), or a reply to one of its
 * visible top-level comments. At most five a minute per reader, counted under the reader's row lock, so
 * parallel requests on several instances cannot pass it together.
 */
export async function postComment(
  user: Pick<SessionUser, "id">,
  chapterId: number,
  input: { body: string; spoiler: boolean; parent?: number },
  now = new Date(),
): Promise<CommentOutcome> {
  const html = renderCommentMarkdown(input.body);
  return db().transaction(async (tx) => {
    const account = await writer(tx, user.id);
    if ("refused" in account) return { ok: false, reason: account.refused };
    const minuteAgo = new Date(now.getTime() - 60_000);
    const [recent] = await tx
      .select({ n: count(), oldest: min(comments.createdAt) })
      .from(comments)
      .where(and(eq(comments.userId, user.id), gt(comments.createdAt, minuteAgo)));
    if ((recent?.n ?? 0) >= COMMENT_LIMITS.perMinute) {
      const oldest = recent?.oldest ? new Date(recent.oldest).getTime() : now.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + 60_000 - now.getTime()) / 1000));
      return { ok: false, reason: "rateLimited", retryAfterSeconds };
    }
    if (linkTooSoon(html, account, now)) return { ok: false, reason: "linksTooSoon" };
    if (input.parent !== undefined) {
      const [parent] = await tx
        .select({ id: comments.id })
        .from(comments)
        .where(
          and(
            eq(comments.id, input.parent),
            eq(comments.chapterId, chapterId),
            isNull(comments.parentId),
            eq(comments.status, "visible"),
          ),
        );
      if (!parent) return { ok: false, reason: "parentGone" };
    }
    const [row] = await tx
      .insert(comments)
      .values({
        chapterId,
        userId: user.id,
        parentId: input.parent ?? null,
        bodyMd: input.body,
        bodyHtml: html,
        spoiler: input.spoiler,
        createdAt: now,
      })
      .returning({ id: comments.id });
    return { ok: true, id: row?.id ?? 0 };
  });
}

/** The reader's own visible comment on the chapter, locked for the change. */
async function ownComment(tx: Tx, userId: number, chapterId: number, id: number) {
  const [row] = await tx
    .select({ createdAt: comments.createdAt, parentId: comments.parentId })
    .from(comments)
    .where(
      and(
        eq(comments.id, id),
        eq(comments.userId, userId),
        eq(comments.chapterId, chapterId),
        eq(comments.status, "visible"),
      ),
    )
    .for("update");
  return row;
}

/** Changes the reader's own comment within 15 minutes of posting it; it then shows "edited". */
export async function editComment(
  user: Pick<SessionUser, "id">,
  chapterId: number,
  input: { comment: number; body: string; spoiler: boolean },
  now = new Date(),
): Promise<CommentOutcome> {
  const html = renderCommentMarkdown(input.body);
  return db().transaction(async (tx) => {
    const account = await writer(tx, user.id);
    if ("refused" in account) return { ok: false, reason: account.refused };
    const own = await ownComment(tx, user.id, chapterId, input.comment);
    if (!own) return { ok: false, reason: "notFound" };
    if (!editable(own.createdAt, now)) return { ok: false, reason: "editWindow" };
    if (linkTooSoon(html, account, now)) return { ok: false, reason: "linksTooSoon" };
    await tx
      .update(comments)
      .set({ bodyMd: input.body, bodyHtml: html, spoiler: input.spoiler, editedAt: now })
      .where(eq(comments.id, input.comment));
    return { ok: true, id: input.comment };
  });
}

/**
 * Deletes the reader's own comment. A comment with replies keeps its place, its text erased ("deleted"), so
 * the replies keep their thread; any other goes, with its hearts and reports.
 */
export async function deleteOwnComment(
  user: Pick<SessionUser, "id">,
  chapterId: number,
  id: number,
): Promise<CommentOutcome> {
  return db().transaction(async (tx) => {
    const own = await ownComment(tx, user.id, chapterId, id);
    if (!own) return { ok: false, reason: "notFound" };
    const [replies] = await tx
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.parentId, id), eq(comments.status, "visible")));
    if ((replies?.n ?? 0) > 0)
      await tx
        .update(comments)
        .set({ status: "deleted", bodyMd: "", bodyHtml: "", spoiler: false })
        .where(eq(comments.id, id));
    else await tx.delete(comments).where(eq(comments.id, id));
    return { ok: true, id };
  });
}

/** A visible comment on the chapter, locked (its heart count changes). */
async function visibleComment(tx: Tx, chapterId: number, id: number) {
  const [row] = await tx
    .select({ userId: comments.userId })
    .from(comments)
    .where(and(eq(comments.id, id), eq(comments.chapterId, chapterId), eq(comments.status, "visible")))
    .for("update");
  return row;
}

/**
 * Sets the reader's heart on a comment (`on`), idempotently: sending "on" twice hearts once. The count
 * moves only when a row of `comment_hearts` was really added or removed, under the comment's row lock.
 */
export async function setHeart(
  user: Pick<SessionUser, "id">,
  chapterId: number,
  id: number,
  on: boolean,
): Promise<CommentOutcome> {
  return db().transaction(async (tx) => {
    if (!(await visibleComment(tx, chapterId, id))) return { ok: false, reason: "notFound" };
    const changed = on
      ? await tx
          .insert(commentHearts)
          .values({ commentId: id, userId: user.id })
          .onConflictDoNothing()
          .returning({ id: commentHearts.commentId })
      : await tx
          .delete(commentHearts)
          .where(and(eq(commentHearts.commentId, id), eq(commentHearts.userId, user.id)))
          .returning({ id: commentHearts.commentId });
    if (changed.length)
      await tx
        .update(comments)
        .set({ hearts: sql`${comments.hearts} + ${on ? 1 : -1}` })
        .where(eq(comments.id, id));
    return { ok: true, id };
  });
}

/** Reports another reader's comment to the author; a second report by the same reader updates the reason. */
export async function reportComment(
  user: Pick<SessionUser, "id">,
  chapterId: number,
  id: number,
  reason: string,
): Promise<CommentOutcome> {
  return db().transaction(async (tx) => {
    const target = await visibleComment(tx, chapterId, id);
    if (!target) return { ok: false, reason: "notFound" };
    if (target.userId === user.id) return { ok: false, reason: "ownComment" };
    await tx
      .insert(commentReports)
      .values({ commentId: id, userId: user.id, reason })
      .onConflictDoUpdate({
        target: [commentReports.commentId, commentReports.userId],
        set: { reason, createdAt: sql`now()`, resolvedAt: null },
      });
    return { ok: true, id };
  });
}
