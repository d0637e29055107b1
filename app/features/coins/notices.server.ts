import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { users } from "#db/schema";
import { accountMail } from "~/features/mail/account-mail.server";
import { sendInBackground } from "~/features/mail/mailer.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { formatNumber } from "~/lib/format";
import { logger } from "~/lib/logger.server";

/**
 * After an author's coin adjustment committed (account/readers.server.ts): the reader is told how many coins,
 * why (the author's reason, as their coin history shows it) and their balance, in their language, when
 * they keep account notices on (settings).
 */
export async function sendCoinAdjustmentMail(userId: number, delta: number, note: string): Promise<void> {
  try {
    const [row] = await db()
      .select({
        email: users.email,
        username: users.username,
        language: users.language,
        balance: users.coinBalance,
        notices: users.emailAccountNotices,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!row?.notices || delta === 0) return;
    const language = isLanguage(row.language) ? row.language : defaultLanguage;
    const t = serverTranslator(language);
    const site = (await getSiteSettings()).title;
    const count = Math.abs(delta);
    const values = {
      username: row.username,
      site,
      count,
      note,
      balance: formatNumber(row.balance, language),
    };
    sendInBackground(
      accountMail(
        language,
        row.email,
        t(delta > 0 ? "coinHistory.mail.addedSubject" : "coinHistory.mail.takenSubject", values),
        [
          ...t(delta > 0 ? "coinHistory.mail.added" : "coinHistory.mail.taken", values).split("\n\n"),
          t("coinHistory.mail.reason", values),
          t("coinHistory.mail.balance", values),
        ],
        { site },
        "/account#coins",
      ),
    );
  } catch (error) {
    logger.error({ event: "coins.mail-failed", userId, err: error }, "coin adjustment e-mail not sent");
  }
}
