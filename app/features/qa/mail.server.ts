import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { qaMails, qaMonths, users } from "#db/schema";
import { getMailer, type Mailer } from "~/features/mail/mailer.server";
import { qaPublishedMail } from "~/features/mail/templates.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { getEnv } from "~/lib/env.server";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/** How long a claimed e-mail is held by its worker, and the waits after failures (as release e-mails: ADR 45). */
const LEASE_MS = 5 * 60_000;
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

/**
 * Claims up to `limit` due Q&A e-mails in one statement (rows another worker holds are skipped, not waited
 * for), leased and counted as an attempt, committed at once: no transaction stays open while mail is sent.
 */
function claimDue(now: Date, limit: number, database: Database) {
  const due = database
    .select({ id: qaMails.id })
    .from(qaMails)
    .where(
      and(
        eq(qaMails.status, "queued"),
        lte(qaMails.nextAttemptAt, now),
        or(isNull(qaMails.lockedUntil), lte(qaMails.lockedUntil, now)),
      ),
    )
    .orderBy(asc(qaMails.nextAttemptAt), asc(qaMails.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  return database
    .update(qaMails)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${qaMails.attempts} + 1` })
    .where(inArray(qaMails.id, due))
    .returning({ id: qaMails.id, userId: qaMails.userId, month: qaMails.month, attempts: qaMails.attempts });
}

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
  const claimed = await claimDue(now, limit, database);
  if (!claimed.length) return outcome;
  const readers = await database
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      language: users.language,
      optedIn: users.emailQa,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(claimed.map((mail) => mail.userId))]));
  const readerOf = new Map(readers.map((reader) => [reader.id, reader]));
  const months = await database
    .select({ month: qaMonths.month, title: qaMonths.title })
    .from(qaMonths)
    .where(inArray(qaMonths.month, [...new Set(claimed.map((mail) => mail.month))]));
  const titleOf = new Map(months.map((row) => [row.month, row.title]));
  const site = await getSiteSettings();
  const origin = getEnv().origin;
  const finish = (id: number, set: Partial<typeof qaMails.$inferInsert>) =>
    database
      .update(qaMails)
      .set({ lockedUntil: null, ...set })
      .where(eq(qaMails.id, id));

  for (const mail of claimed) {
    const reader = readerOf.get(mail.userId);
    const title = titleOf.get(mail.month);
    if (!reader || title === undefined || !reader.optedIn || reader.suspendedAt) {
      await finish(mail.id, { status: "cancelled" });
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
      const failed = mail.attempts > RETRY_DELAYS_MS.length;
      const delay = RETRY_DELAYS_MS[mail.attempts - 1] ?? 0;
      await finish(mail.id, {
        lastError: code,
        ...(failed ? { status: "failed" as const } : { nextAttemptAt: new Date(now.getTime() + delay) }),
      });
      logger.warn(
        { event: "qa-mail.failed", mailId: mail.id, attempts: mail.attempts, code },
        "Q&A e-mail failed",
      );
      if (failed) outcome.failed++;
      else outcome.retried++;
      continue;
    }
    await finish(mail.id, { status: "sent", sentAt: now, lastError: null });
    outcome.sent++;
  }
  return outcome;
}
