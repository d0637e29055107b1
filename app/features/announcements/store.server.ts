import { and, count, desc, eq, gte, isNull, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { announcementMails, announcements, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { logger } from "~/lib/logger.server";
import { type AnnouncementInput, HOME_ANNOUNCEMENTS } from "./limits";

export type PublishOutcome = { id: number; queued: number; again: boolean };

/**
 * Publishes an announcement and queues its e-mails, in one transaction (ADR 95): a row per reader who asked
 * for news and can receive it (not suspended), unique per (announcement, reader). The form's key is unique
 * too: the same form published twice (or by two requests at once) is one announcement, its e-mails queued by
 * the request that inserted it; the other finds it (`again`) and queues nothing. The audit log has the change,
 * and the content revision moves (trigger), so the home page shows it within a second on every instance.
 */
export function publishAnnouncement(
  input: AnnouncementInput,
  actor: Actor & { via: "admin" },
  database: Database = db(),
): Promise<PublishOutcome> {
  return database.transaction(async (tx) => {
    const [made] = await tx
      .insert(announcements)
      .values({ title: input.title, bodyMd: input.bodyMd, publishKey: input.key, authorId: actor.userId })
      .onConflictDoNothing({ target: announcements.publishKey })
      .returning({ id: announcements.id });
    if (!made) {
      const [existing] = await tx
        .select({ id: announcements.id })
        .from(announcements)
        .where(eq(announcements.publishKey, input.key));
      return { id: existing?.id ?? 0, queued: 0, again: true };
    }
    const result = await tx.execute(sql`
      insert into ${announcementMails} (user_id, announcement_id)
      select ${users.id}, ${made.id}::integer from ${users}
      where ${users.emailNews} and ${users.suspendedAt} is null
      on conflict do nothing
      returning id`);
    const queued = (result as unknown as { rows: unknown[] }).rows.length;
    await recordAudit(tx, actor, {
      action: "announcement.publish",
      subjectType: "announcement",
      subjectId: made.id,
      after: { title: input.title, characters: [...input.bodyMd].length, emails: queued },
    });
    logger.info({ event: "announcement.published", id: made.id, queued }, "announcement published");
    return { id: made.id, queued, again: false };
  });
}

/**
 * Deletes an announcement: it leaves the home page, and its e-mails not yet sent are never sent (their rows
 * go with it). Audited. False when there is none by that id.
 */
export function deleteAnnouncement(id: number, actor: Actor & { via: "admin" }): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [gone] = await tx
      .delete(announcements)
      .where(eq(announcements.id, id))
      .returning({ title: announcements.title, publishedAt: announcements.publishedAt });
    if (!gone) return false;
    await recordAudit(tx, actor, {
      action: "announcement.delete",
      subjectType: "announcement",
      subjectId: id,
      before: { title: gone.title, publishedAt: gone.publishedAt.toISOString() },
    });
    return true;
  });
}

/** The admin's list, newest first: each with how many e-mails went and how many wait. */
export async function listAnnouncements(limit = 50) {
  const rows = await db()
    .select({
      id: announcements.id,
      title: announcements.title,
      bodyMd: announcements.bodyMd,
      publishedAt: announcements.publishedAt,
      by: users.username,
    })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.authorId))
    .orderBy(desc(announcements.publishedAt), desc(announcements.id))
    .limit(limit);
  const mails = await db()
    .select({ id: announcementMails.announcementId, status: announcementMails.status, n: count() })
    .from(announcementMails)
    .groupBy(announcementMails.announcementId, announcementMails.status);
  const countOf = (id: number, status: string) =>
    mails.find((row) => row.id === id && row.status === status)?.n ?? 0;
  return rows.map((row) => ({
    ...row,
    publishedAt: row.publishedAt.toISOString(),
    sent: countOf(row.id, "sent"),
    waiting: countOf(row.id, "queued"),
  }));
}

/**
 * What the home page shows (ADR 95): the newest few published in the last days, their text rendered by the
 * site's Markdown renderer (kept by the text's hash). The home page is kept and retired on any content change,
 * so an announcement appears or goes with the next render; one past its days leaves with the next change or
 * the kept page's age.
 */
export async function homeAnnouncements(now = new Date()) {
  const since = new Date(now.getTime() - HOME_ANNOUNCEMENTS.days * 86_400_000);
  const rows = await db()
    .select({
      id: announcements.id,
      title: announcements.title,
      bodyMd: announcements.bodyMd,
      publishedAt: announcements.publishedAt,
    })
    .from(announcements)
    .where(gte(announcements.publishedAt, since))
    .orderBy(desc(announcements.publishedAt), desc(announcements.id))
    .limit(HOME_ANNOUNCEMENTS.count);
  return rows.map(({ bodyMd, ...row }) => ({
    ...row,
    publishedAt: row.publishedAt.toISOString(),
    html: renderMarkdownCached(bodyMd),
  }));
}

/** Whether the reader gets the announcements by e-mail (/settings). */
export async function newsEmailsOn(userId: number): Promise<boolean> {
  const [row] = await db().select({ on: users.emailNews }).from(users).where(eq(users.id, userId));
  return row?.on ?? false;
}

/** Readers who would be e-mailed now: the admin form says how many. */
export async function newsReaders(): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.emailNews, true), isNull(users.suspendedAt)));
  return row?.n ?? 0;
}
