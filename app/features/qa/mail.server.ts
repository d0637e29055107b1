import { inArray } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { qaMails, qaMonths, users } from "#db/schema";
import { getMailer, type Mailer } from "~/features/mail/mailer.server";
import { type Attempt, claimDue, finishAttempt, mailReaders } from "~/features/mail/queue.server";
import { qaPublishedMail } from "~/features/mail/templates.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/**
 * Sends the Q&A e-mails this worker claims, each marked sent once it is handed to the mailer, retried later on
 * a failure, or cancelled when its reader turned the choice off or was suspended since. Returns the counts.
 */
export async function sendDueQaMails({
  now = new Date(),
  limit = 20,
  mailer = getMailer(),
  database = db(),
}: {
  now?: Date;
  limit?: number;
  mailer?: Mailer;
  database?: Database;
} = {}) {
  const outcome = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
  const claimed = await claimDue(
    qaMails,
    { id: qaMails.id, userId: qaMails.userId, month: qaMails.month, attempts: qaMails.attempts },
    { now, limit, database },
  );
  if (!claimed.length) return outcome;
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
  const finish = (mail: (typeof claimed)[number], attempt: Attempt) =>
    finishAttempt(qaMails, mail, attempt, { now, database });

  for (const mail of claimed) {
    const reader = readerOf.get(mail.userId);
    const title = titleOf.get(mail.month);
    if (!reader || title === undefined || !reader.optedIn || reader.suspendedAt) {
      await finish(mail, { outcome: "cancelled" });
      outcome.cancelled++;
      continue;
    }
    const language = isLanguage(reader.language) ? reader.language : defaultLanguage;
    try {
      await mailer.send(
        qaPublishedMail(language, reader.email, {
          username: reader.username,
          site: site.title,
          title,
          link: `${origin}/qa/${mail.month}`,
          settingsLink: `${origin}/settings#emails`,
        }),
      );
    } catch (error) {
      const { code } = describeError(error);
      const { retryInMs } = await finish(mail, { outcome: "failed", code });
      logger.warn(
        { event: "qa-mail.failed", mailId: mail.id, attempts: mail.attempts, code },
        "Q&A e-mail failed",
      );
      if (retryInMs === undefined) outcome.failed++;
      else outcome.retried++;
      continue;
    }
    await finish(mail, { outcome: "sent" });
    outcome.sent++;
  }
  return outcome;
}
