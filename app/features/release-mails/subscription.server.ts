import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { announcementMails, releaseMails, users } from "#db/schema";
import { hashToken } from "~/lib/tokens.server";

/**
 * The one opt-in for release e-mails is `users.email_new_chapters` (/settings' "new chapters" choice, ADR 32);
 * "Notify me" and the unsubscribe link change the same column.
 */
export async function newChapterEmailsOn(userId: number): Promise<boolean> {
  const [row] = await db().select({ on: users.emailNewChapters }).from(users).where(eq(users.id, userId));
  return row?.on ?? false;
}

export async function setNewChapterEmails(userId: number, on: boolean): Promise<void> {
  await db().update(users).set({ emailNewChapters: on }).where(eq(users.id, userId));
}

/** An unsubscribe token as the sender makes it (randomToken: 32 bytes, base64url); anything else is refused unread. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Which e-mails an unsubscribe link stops: new chapters (release e-mails) or the author's news (ADR 95). */
export type MailList = "chapters" | "news";

/**
 * The account an unsubscribe link belongs to, and the e-mails it stops: the e-mail that carried it names its
 * reader by the token's SHA-256 (only the hash is stored), in `release_mails` or `announcement_mails`.
 * Undefined for anything that is not such a link.
 */
export async function unsubscribeTarget(
  token: string,
): Promise<{ userId: number; email: string; list: MailList } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const hash = hashToken(token);
  const [release] = await db()
    .select({ userId: users.id, email: users.email })
    .from(releaseMails)
    .innerJoin(users, eq(users.id, releaseMails.userId))
    .where(eq(releaseMails.unsubscribeHash, hash));
  const [news] = release
    ? []
    : await db()
        .select({ userId: users.id, email: users.email })
        .from(announcementMails)
        .innerJoin(users, eq(users.id, announcementMails.userId))
        .where(eq(announcementMails.unsubscribeHash, hash));
  const row = release ?? news;
  return row
    ? { userId: row.userId, email: maskedEmail(row.email), list: release ? "chapters" : "news" }
    : undefined;
}

/** The address as the page shows it to whoever holds the link (a forwarded e-mail): "r…@example.test". */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 1 ? "…" : `${[...email][0]}…${email.slice(at)}`;
}

/**
 * Turns a reader's release e-mails (or news e-mails, by the link's list) off from the link of one of them, without signing in (RFC 8058's one-click
 * POST, or the page's button): the token is the credential. Undefined when the link is not one of ours.
 */
export async function unsubscribeWithToken(
  token: string,
): Promise<{ email: string; list: MailList } | undefined> {
  const target = await unsubscribeTarget(token);
  if (!target) return undefined;
  if (target.list === "chapters") await setNewChapterEmails(target.userId, false);
  else await db().update(users).set({ emailNews: false }).where(eq(users.id, target.userId));
  return { email: target.email, list: target.list };
}
