import { eq, inArray } from "drizzle-orm";
import { announcementMails, announcements, users } from "#db/schema";
import {
  claimDue,
  mailReaders,
  type QueueOutcome,
  type SenderOptions,
  sendEach,
  senderOptions,
} from "~/features/mail/queue.server";
import { announcementMail } from "~/features/mail/templates.server";
import { unsubscribePath } from "~/features/release-mails/send.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";
import { hashToken, randomToken } from "~/lib/tokens.server";

/**
 * Sends the announcement e-mails this worker claims (ADR 95), as release e-mails are sent (ADR 45): claimed
 * under a lease with SKIP LOCKED, so two workers never take the same row, each marked sent once handed to the
 * mailer, retried after a failure, cancelled when its reader turned the choice off or was suspended since. In
 * the reader's language around the author's words, with its own unsubscribe link. Returns the counts.
 */
export async function sendDueAnnouncementMails(options?: SenderOptions): Promise<QueueOutcome> {
  const { now, limit, mailer, database } = senderOptions(options);
  const claimed = await claimDue(
    announcementMails,
    {
      id: announcementMails.id,
      userId: announcementMails.userId,
      announcementId: announcementMails.announcementId,
      attempts: announcementMails.attempts,
    },
    { now, limit, database },
  );
  if (!claimed.length) return { sent: 0, retried: 0, failed: 0, cancelled: 0 };
  const readerOf = await mailReaders(
    database,
    claimed.map((mail) => mail.userId),
    users.emailNews,
  );
  const rows = await database
    .select({ id: announcements.id, title: announcements.title, bodyMd: announcements.bodyMd })
    .from(announcements)
    .where(inArray(announcements.id, [...new Set(claimed.map((mail) => mail.announcementId))]));
  const announcementOf = new Map(rows.map((row) => [row.id, row]));
  const site = await getSiteSettings();
  const origin = getEnv().origin;
  return sendEach(
    announcementMails,
    claimed,
    (mail) => {
      const reader = readerOf.get(mail.userId);
      const announcement = announcementOf.get(mail.announcementId);
      if (!reader || !announcement || !reader.optedIn || reader.suspendedAt) return undefined;
      const language = isLanguage(reader.language) ? reader.language : defaultLanguage;
      const token = randomToken();
      return async () => {
        await database
          .update(announcementMails)
          .set({ unsubscribeHash: hashToken(token) })
          .where(eq(announcementMails.id, mail.id));
        await mailer.send(
          announcementMail(language, reader.email, {
            username: reader.username,
            site: site.title,
            title: announcement.title,
            text: announcement.bodyMd,
            link: `${origin}/`,
            unsubscribeLink: `${origin}${unsubscribePath(token)}`,
          }),
        );
      };
    },
    { now, database, event: "announcement-mail.failed" },
  );
}
