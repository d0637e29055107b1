import { inArray } from "drizzle-orm";
import { qaMails, qaMonths, users } from "#db/schema";
import {
  claimDue,
  mailReaders,
  type QueueOutcome,
  type SenderOptions,
  sendEach,
  senderOptions,
} from "~/features/mail/queue.server";
import { qaPublishedMail } from "~/features/mail/templates.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";

/**
 * Sends the Q&A e-mails this worker claims, each marked sent once it is handed to the mailer, retried later on
 * a failure, or cancelled when its reader turned the choice off or was suspended since. Returns the counts.
 */
export async function sendDueQaMails(options?: SenderOptions): Promise<QueueOutcome> {
  const { now, limit, mailer, database } = senderOptions(options);
  const claimed = await claimDue(
    qaMails,
    { id: qaMails.id, userId: qaMails.userId, month: qaMails.month, attempts: qaMails.attempts },
    { now, limit, database },
  );
  if (!claimed.length) return { sent: 0, retried: 0, failed: 0, cancelled: 0 };
  const readerOf = await mailReaders(
    database,
    claimed.map((mail) => mail.userId),
    users.emailQa,
  );
  const months = await database
    .select({ month: qaMonths.month, title: qaMonths.title })
    .from(qaMonths)
    .where(inArray(qaMonths.month, [...new Set(claimed.map((mail) => mail.month))]));
  const titleOf = new Map(months.map((row) => [row.month, row.title]));
  const site = await getSiteSettings();
  const origin = getEnv().origin;
  return sendEach(
    qaMails,
    claimed,
    (mail) => {
      const reader = readerOf.get(mail.userId);
      const title = titleOf.get(mail.month);
      if (!reader || title === undefined || !reader.optedIn || reader.suspendedAt) return undefined;
      const language = isLanguage(reader.language) ? reader.language : defaultLanguage;
      return () =>
        mailer.send(
          qaPublishedMail(language, reader.email, {
            username: reader.username,
            site: site.title,
            title,
            link: `${origin}/qa/${mail.month}`,
            settingsLink: `${origin}/settings#emails`,
          }),
        );
    },
    { now, database, event: "qa-mail.failed" },
  );
}
