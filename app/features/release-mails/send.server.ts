import { eq, inArray } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { releaseMails, users } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { excerptOf, textsOf } from "~/features/feeds/releases.server";
import { getMailer, type Mailer } from "~/features/mail/mailer.server";
import { claimDue, finishAttempt } from "~/features/mail/queue.server";
import { releaseMail } from "~/features/mail/templates.server";
import { getMembership } from "~/features/membership/queries.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { chapterTranslationTexts } from "~/features/translations/reading.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { localizedPath } from "~/i18n/urls";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { hashToken, randomToken } from "~/lib/tokens.server";

export const unsubscribePath = (token: string) => `/unsubscribe/${token}`;

type Claimed = {
  id: number;
  userId: number;
  chapterId: number;
  kind: "release" | "early" | "translation";
  language: string;
  attempts: number;
};

/** Claims up to `limit` due release e-mails (`claimDue`: leased, skipped by other workers). */
export function claimDueMails(now: Date, limit: number, database: Database = db()): Promise<Claimed[]> {
  return claimDue(
    releaseMails,
    {
      id: releaseMails.id,
      userId: releaseMails.userId,
      chapterId: releaseMails.chapterId,
      kind: releaseMails.kind,
      language: releaseMails.language,
      attempts: releaseMails.attempts,
    },
    { now, limit, database },
  );
}

export type SendOptions = {
  /** The real time: leases and retries (ADR 39: mail keeps the real time). */
  now?: Date;
  /** The release time: whether a chapter is free, paid or still early. */
  releaseNow?: Date;
  limit?: number;
  mailer?: Mailer;
  database?: Database;
};

/**
 * Sends the due e-mails this worker claims, one at a time, each marked sent, retried later or (past
 * MAX_ATTEMPTS) kept as failed and logged. A reader who turned the e-mails off since, or was suspended, is
 * skipped (`cancelled`). Returns what happened to each.
 */
export async function sendDueMails({
  now = new Date(),
  releaseNow = releaseTime(),
  limit = 20,
  mailer = getMailer(),
  database = db(),
}: SendOptions = {}): Promise<{ sent: number; retried: number; failed: number; cancelled: number }> {
  const outcome = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
  const claimed = await claimDueMails(now, limit, database);
  if (!claimed.length) return outcome;
  const readers = await database
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      language: users.language,
      optedIn: users.emailNewChapters,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(
      inArray(
        users.id,
        claimed.map((mail) => mail.userId),
      ),
    );
  const readerOf = new Map(readers.map((reader) => [reader.id, reader]));
  const catalog = await getChapterCatalog();
  const chapterOf = new Map(catalog.published.map((chapter) => [chapter.id, chapter]));
  const chapterIds = [...new Set(claimed.map((mail) => mail.chapterId))];
  const texts = await textsOf(chapterIds);
  const translations = await chapterTranslationTexts(chapterIds);
  const site = await getSiteSettings();
  const origin = getEnv().origin;

  for (const mail of claimed) {
    const reader = readerOf.get(mail.userId);
    const chapter = chapterOf.get(mail.chapterId);
    const language = isLanguage(reader?.language) ? reader.language : defaultLanguage;
    // In the reader's language where its translation is out (ADR 94).
    const translation = translations.get(mail.chapterId)?.get(language);
    if (
      !reader ||
      !chapter ||
      !reader.optedIn ||
      reader.suspendedAt ||
      // A translation's e-mail to a reader who has changed language since, or of one since withdrawn.
      (mail.kind === "translation" && (mail.language !== language || !translation))
    ) {
      await finishAttempt(releaseMails, mail, { outcome: "cancelled" }, { now, database });
      outcome.cancelled++;
      continue;
    }
    const t = serverTranslator(language);
    // An early notice goes to a reader whose tier reads the chapter: its opening, like a free chapter's. A paid
    // chapter gets its invitation to unlock, never its text.
    const status = chapterStatus(chapter, releaseNow);
    const body = translation?.bodyMd ?? texts.get(chapter.id) ?? "";
    const excerpt = status === "paid" ? t("feed.unlock", { count: chapter.coinsRequired }) : excerptOf(body);
    const tier =
      mail.kind === "early" ? t(`tiers.${(await getMembership(reader.id, releaseNow)).tier}`) : undefined;
    const token = randomToken();
    try {
      await database
        .update(releaseMails)
        .set({ unsubscribeHash: hashToken(token) })
        .where(eq(releaseMails.id, mail.id));
      await mailer.send(
        releaseMail(language, reader.email, mail.kind, {
          username: reader.username,
          site: site.title,
          number: String(chapter.number),
          title: translation?.title ?? chapter.title,
          ...(tier ? { tier } : {}),
          excerpt,
          link: `${origin}${translation ? localizedPath(language, `/chapter/${chapter.number}`) : `/chapter/${chapter.number}`}`,
          unsubscribeLink: `${origin}${unsubscribePath(token)}`,
        }),
      );
    } catch (error) {
      const { code } = describeError(error);
      const { retryInMs } = await finishAttempt(
        releaseMails,
        mail,
        { outcome: "failed", code },
        { now, database },
      );
      const line = { event: "release-mail.failed", mailId: mail.id, attempts: mail.attempts, code };
      if (retryInMs === undefined) {
        logger.error(line, "release e-mail failed for good (kept as failed)");
        outcome.failed++;
      } else {
        logger.warn({ ...line, retryInMs }, "release e-mail failed, trying again later");
        outcome.retried++;
      }
      continue;
    }
    await finishAttempt(releaseMails, mail, { outcome: "sent" }, { now, database });
    outcome.sent++;
  }
  return outcome;
}
