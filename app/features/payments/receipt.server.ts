import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { payments, subscriptions, users } from "#db/schema";
import type { MailMessage } from "~/features/mail/mailer.server";
import { sendInBackground } from "~/features/mail/mailer.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage, type Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { getEnv } from "~/lib/env.server";
import { formatMoney } from "~/lib/format";
import { logger } from "~/lib/logger.server";

/**
 * Support e-mails (ADR 27), after the payment's transaction committed and in the background, so a mail
 * server that is down never undoes a payment: a receipt for every paid support payment (a subscription's
 * first invoice, each renewal, an upgrade's charge, a gift), and a notice when a renewal fails.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const formatDate = (date: Date, language: Language) =>
  new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(date);

/** Paragraphs (the first is the greeting), a link to the account, the signature. */
function supportMail(
  language: Language,
  to: string,
  subject: string,
  paragraphs: string[],
  values: { site: string },
): MailMessage {
  const t = serverTranslator(language);
  const link = `${getEnv().origin}/account#subscription`;
  const signature = t("mail.signature", values);
  return {
    to,
    subject,
    text: [...paragraphs, link, signature].join("\n\n"),
    html: [
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(link)}">${escapeHtml(t("payments.receipt.button"))}</a></p>`,
      `<p>${escapeHtml(signature)}</p>`,
    ].join("\n"),
  };
}

export type ReceiptValues = {
  username: string;
  site: string;
  amount: string;
  date: string;
  item: string;
  /** A subscription's next renewal (or the end of a cancelled one), already formatted. */
  next?: { kind: "renews" | "ends"; date: string };
};

export function receiptMail(language: Language, to: string, values: ReceiptValues): MailMessage {
  const t = serverTranslator(language);
  const paragraphs = t("payments.receipt.body", values).split("\n\n");
  if (values.next) paragraphs.push(t(`payments.receipt.${values.next.kind}`, { date: values.next.date }));
  return supportMail(language, to, t("payments.receipt.subject", values), paragraphs, values);
}

export function renewalFailedMail(
  language: Language,
  to: string,
  values: { username: string; site: string; tier: string; amount: string; date: string },
): MailMessage {
  const t = serverTranslator(language);
  return supportMail(
    language,
    to,
    t("payments.receipt.failedSubject", values),
    t("payments.receipt.failedBody", values).split("\n\n"),
    values,
  );
}

const languageOf = (value: string | null) => (isLanguage(value) ? value : defaultLanguage);

/** A paid support payment's receipt (a payment of another kind, or not paid, sends nothing). */
export async function sendSupportReceipt(paymentId: number): Promise<void> {
  try {
    const [row] = await db()
      .select({
        kind: payments.kind,
        status: payments.status,
        amountCents: payments.amountCents,
        currency: payments.currency,
        tierKey: payments.tierKey,
        description: payments.description,
        paidAt: payments.paidAt,
        subscriptionId: payments.subscriptionId,
        email: users.email,
        username: users.username,
        language: users.language,
      })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(eq(payments.id, paymentId));
    if (row?.status !== "paid" || (row.kind !== "subscription" && row.kind !== "gift")) return;
    const language = languageOf(row.language);
    const t = serverTranslator(language);
    const [sub] = row.subscriptionId
      ? await db().select().from(subscriptions).where(eq(subscriptions.id, row.subscriptionId))
      : [];
    const tier = row.tierKey ? t(`tiers.${row.tierKey}`) : "";
    const item =
      row.kind === "gift"
        ? t("payments.receipt.gift")
        : row.description.endsWith("(upgrade)")
          ? t("payments.receipt.upgrade", { tier })
          : t("payments.subscriptionItem", { tier });
    sendInBackground(
      receiptMail(language, row.email, {
        username: row.username,
        site: (await getSiteSettings()).title,
        amount: formatMoney(row.amountCents, row.currency, language, { minor: true }),
        date: formatDate(row.paidAt ?? new Date(), language),
        item,
        ...(sub && {
          next: {
            kind: sub.cancelAtPeriodEnd ? ("ends" as const) : ("renews" as const),
            date: formatDate(sub.currentPeriodEnd, language),
          },
        }),
      }),
    );
  } catch (error) {
    logger.error({ event: "receipt.mail-failed", paymentId, err: error }, "support receipt not sent");
  }
}

/** A failed renewal: the tier lasts until the grace ends. */
export async function sendRenewalFailed(subscriptionId: number): Promise<void> {
  try {
    const [row] = await db()
      .select({
        tierKey: subscriptions.tierKey,
        amountCents: subscriptions.amountCents,
        currency: subscriptions.currency,
        graceUntil: subscriptions.graceUntil,
        email: users.email,
        username: users.username,
        language: users.language,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(subscriptions.id, subscriptionId));
    if (!row?.graceUntil) return;
    const language = languageOf(row.language);
    sendInBackground(
      renewalFailedMail(language, row.email, {
        username: row.username,
        site: (await getSiteSettings()).title,
        tier: serverTranslator(language)(`tiers.${row.tierKey}`),
        amount: formatMoney(row.amountCents, row.currency, language, { minor: true }),
        date: formatDate(row.graceUntil, language),
      }),
    );
  } catch (error) {
    logger.error({ event: "receipt.mail-failed", subscriptionId, err: error }, "renewal notice not sent");
  }
}
