import { and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, commentBans, commentReports, comments, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import type { ModerationAction, ModerationView } from "./moderation";

/** A page of the moderation list. */
export const MODERATION_PAGE_SIZE = 50;

/**
 * Comments for the author to moderate (ADR 47), newest first, 50 a page (`before`: the last id seen):
 * those with open reports, the hidden ones, or all. Each with its chapter, writer, whether the writer is
 * barred from commenting, and its open reports' reasons.
 */
export async function listForModeration(filter: { view: ModerationView; before?: number }) {
  const conditions: SQL[] = [sql`${comments.status} <> 'deleted'`];
  if (filter.view === "hidden") conditions.push(eq(comments.status, "hidden"));
  if (filter.view === "reported")
    conditions.push(
      sql`exists (select 1 from ${commentReports} where ${commentReports.commentId} = ${comments.id} and ${commentReports.resolvedAt} is null)`,
    );
  if (filter.before) conditions.push(lt(comments.id, filter.before));
  const rows = await db()
    .select({
      id: comments.id,
      chapter: chapters.number,
      writerId: comments.userId,
      writer: users.username,
      html: comments.bodyHtml,
      status: comments.status,
      createdAt: comments.createdAt,
      banned: sql<boolean>`${commentBans.userId} is not null`,
      reports: sql<
        string[]
      >`coalesce((select array_agg(${commentReports.reason} order by ${commentReports.createdAt})
        from ${commentReports} where ${commentReports.commentId} = ${comments.id} and ${commentReports.resolvedAt} is null), '{}')`,
    })
    .from(comments)
    .innerJoin(chapters, eq(chapters.id, comments.chapterId))
    .innerJoin(users, eq(users.id, comments.userId))
    .leftJoin(commentBans, eq(commentBans.userId, comments.userId))
    .where(and(...conditions))
    .orderBy(desc(comments.id))
    .limit(MODERATION_PAGE_SIZE + 1);
  return {
    comments: rows
      .slice(0, MODERATION_PAGE_SIZE)
      .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    next: rows.length > MODERATION_PAGE_SIZE ? rows[MODERATION_PAGE_SIZE - 1]?.id : undefined,
  };
}

/**
 * Hides, restores or deletes a comment, or dismisses its reports (keeping it): audited, and every open
 * report of it resolved. A comment deleted by its writer (its text already erased) is not moderated.
 */
export async function moderateComment(
  id: number,
  action: ModerationAction,
  actor: Actor,
): Promise<{ ok: true } | { ok: false; reason: "notFound" }> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ status: comments.status, userId: comments.userId })
      .from(comments)
      .where(and(eq(comments.id, id), sql`${comments.status} <> 'deleted'`))
      .for("update");
    if (!row) return { ok: false, reason: "notFound" };
    const after =
      action === "hide"
        ? "hidden"
        : action === "restore"
          ? "visible"
          : action === "delete"
            ? "gone"
            : row.status;
    if (action === "delete") await tx.delete(comments).where(eq(comments.id, id));
    else {
      if (after !== row.status)
        await tx
          .update(comments)
          .set({ status: after as "visible" | "hidden" })
          .where(eq(comments.id, id));
      await tx
        .update(commentReports)
        .set({ resolvedAt: sql`now()` })
        .where(and(eq(commentReports.commentId, id), isNull(commentReports.resolvedAt)));
    }
    await recordAudit(tx, actor, {
      action: `comment.${action}`,
      subjectType: "comment",
      subjectId: id,
      before: { status: row.status, writer: row.userId },
      after: { status: after },
    });
    return { ok: true };
  });
}

/** Bars a reader from commenting (or lifts it); an author cannot be barred. Audited. */
export async function setCommentBan(
  userId: number,
  banned: boolean,
  actor: Actor,
): Promise<{ ok: true } | { ok: false; reason: "notFound" | "author" }> {
  return db().transaction(async (tx) => {
    const [reader] = await tx
      .select({ role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!reader) return { ok: false, reason: "notFound" };
    if (reader.role === "author") return { ok: false, reason: "author" };
    const changed = banned
      ? await tx
          .insert(commentBans)
          .values({ userId, bannedBy: actor.via === "admin" ? actor.userId : null })
          .onConflictDoNothing()
          .returning({ id: commentBans.userId })
      : await tx
          .delete(commentBans)
          .where(eq(commentBans.userId, userId))
          .returning({ id: commentBans.userId });
    if (changed.length)
      await recordAudit(tx, actor, {
        action: banned ? "reader.commentBan" : "reader.commentUnban",
        subjectType: "user",
        subjectId: userId,
        before: { banned: !banned },
        after: { banned },
      });
    return { ok: true };
  });
}
