import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { orderLines, orders, payments, subscriptions, users } from "#db/schema";
import { perkPlaces } from "~/features/discord/perk-places.server";
import { accountMail, type MailLink } from "~/features/mail/account-mail.server";
import type { MailMessage } from "~/features/mail/mailer.server";
import { sendInBackground } from "~/features/mail/mailer.server";
import { type PerkLink, perkLinks, perksOf } from "~/features/membership/perks";
import { orderNumber } from "~/features/order-fulfilment/number";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, isLanguage, type Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { getEnv } from "~/lib/env.server";
import { formatMoney } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import type { RefundChange } from "./fulfil.server";

/**
 * Support e-mails (ADR 27), after the payment's transaction committed and in the background, so a mail
 * server that is down never undoes a payment: a receipt for every paid support payment (a subscription's
 * first invoice, each renewal, an upgrade's charge, a gift), and a notice when a renewal fails.
 */

const formatDate = (date: Date, language: Language) =>
  new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(date);

export type ReceiptValues = {
  username: string;
  site: string;
  amount: string;
  date: string;
  item: string;
  /** A subscription's next renewal (or the end of a cancelled one), already formatted. */
  next?: { kind: "renews" | "ends"; date: string };
};

/**
 * A paid payment's receipt. `perks`: a new supporter's (a subscription's first payment, or an upgrade) tier's
 * perks, each with where it lives, so the receipt also welcomes them.
 */
export function receiptMail(
  language: Language,
  to: string,
  values: ReceiptValues,
  path?: string,
  perks: PerkLink[] = [],
): MailMessage {
  const t = serverTranslator(language);
  const paragraphs: (string | MailLink)[] = t("payments.receipt.body", values).split("\n\n");
  if (values.next) paragraphs.push(t(`payments.receipt.${values.next.kind}`, { date: values.next.date }));
  if (perks.length > 0) paragraphs.push(t("perks.mailHeading"));
  for (const { perk, href, external } of perks)
    paragraphs.push({
      label: t(`perks.items.${perk}.name`),
      note: t(`perks.items.${perk}.what`),
      href: external ? href : `${getEnv().origin}${href}`,
    });
  return accountMail(language, to, t("payments.receipt.subject", values), paragraphs, values, path);
}

export function renewalFailedMail(
  language: Language,
  to: string,
  values: { username: string; site: string; tier: string; amount: string; date: string },
): MailMessage {
  const t = serverTranslator(language);
  return accountMail(
    language,
    to,
    t("payments.receipt.failedSubject", values),
    t("payments.receipt.failedBody", values).split("\n\n"),
    values,
  );
}

const languageOf = (value: string | null) => (isLanguage(value) ? value : defaultLanguage);

export type RefundValues = {
  username: string;
  site: string;
  item: string;
  amount: string;
  total: string;
  /** Everything refunded of the payment so far, when this refund is not the first. */
  allRefunded?: string;
  /** Membership days: taken back with the units the refund covers, kept when it covers none (ADR 57). */
  days?: { kind: "taken"; units: number; days: number } | { kind: "kept" };
  tier?: { from: string; to: string };
};

/** A refund of a payment (ADR 57): how much, what it did to the membership days and the tier, and why. */
export function refundMail(language: Language, to: string, values: RefundValues, path: string): MailMessage {
  const t = serverTranslator(language);
  const paragraphs = t("payments.refund.body", values).split("\n\n");
  if (values.allRefunded) paragraphs.push(t("payments.refund.soFar", { amount: values.allRefunded }));
  if (values.days?.kind === "taken")
    paragraphs.push(t("payments.refund.daysTaken", { count: values.days.units, days: values.days.days }));
  if (values.days?.kind === "kept") paragraphs.push(t("payments.refund.daysKept"));
  if (values.tier) paragraphs.push(t("payments.refund.tierChanged", values.tier));
  const button = path.startsWith("/orders/") ? "mail.order.button" : "payments.receipt.button";
  return accountMail(language, to, t("payments.refund.subject", values), paragraphs, values, path, button);
}

/**
 * After a refund event committed (fulfil.server.ts `RefundChange`): the buyer's e-mail in their language.
 * Sent whatever their e-mail choices, as a receipt is: it is about their money.
 */
export async function sendRefundMail(change: RefundChange): Promise<void> {
  try {
    if (change.cents <= 0) return;
    const [row] = await db()
      .select({
        kind: payments.kind,
        amountCents: payments.amountCents,
        currency: payments.currency,
        coins: payments.coins,
        tierKey: payments.tierKey,
        description: payments.description,
        email: users.email,
        username: users.username,
        language: users.language,
        orderId: orders.id,
        orderDays: sql<number>`(select coalesce(sum(${orderLines.membershipDays} * ${orderLines.quantity}), 0)
          from ${orderLines} where ${orderLines.orderId} = ${orders.id})`.mapWith(Number),
      })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .leftJoin(orders, eq(orders.paymentId, payments.id))
      .where(eq(payments.id, change.paymentId));
    if (!row) return;
    const language = languageOf(row.language);
    const t = serverTranslator(language);
    const money = (cents: number) => formatMoney(cents, row.currency, language, { minor: true });
    const days: RefundValues["days"] =
      change.unitsRevoked > 0
        ? { kind: "taken", units: change.unitsRevoked, days: change.daysRevoked }
        : row.orderDays > 0 && change.totalRefundedCents < row.amountCents
          ? { kind: "kept" }
          : undefined;
    sendInBackground(
      refundMail(
        language,
        row.email,
        {
          username: row.username,
          site: (await getSiteSettings()).title,
          item: paymentItemName(t, row),
          amount: money(change.cents),
          total: money(row.amountCents),
          ...(change.totalRefundedCents > change.cents && { allRefunded: money(change.totalRefundedCents) }),
          ...(days && { days }),
          ...(change.tier && {
            tier: { from: t(`tiers.${change.tier.from}`), to: t(`tiers.${change.tier.to}`) },
          }),
        },
        row.orderId ? `/orders/${row.orderId}` : "/account#purchases",
      ),
    );
  } catch (error) {
    logger.error(
      { event: "refund.mail-failed", paymentId: change.paymentId, err: error },
      "refund e-mail not sent",
    );
  }
}

/** What a payment bought, in the reader's language (as `ItemName` shows it on the account). */
function paymentItemName(
  t: ReturnType<typeof serverTranslator>,
  payment: {
    kind: string;
    coins: number;
    tierKey: string | null;
    description: string;
    orderId: number | null;
  },
): string {
  if (payment.orderId) return t("orders.paymentItem", { number: orderNumber(payment.orderId) });
  if (payment.kind === "coins") return t("coins.packName", { count: payment.coins });
  if (payment.kind === "gift") return t("payments.receipt.gift");
  if (payment.kind === "subscription" && payment.tierKey)
    return t("payments.subscriptionItem", { tier: t(`tiers.${payment.tierKey}`) });
  return payment.description;
}

/**
 * A paid payment's receipt: a support payment's (a subscription's invoice or a gift, with the next renewal
 * or the end) always; a coin pack's only to a reader who keeps account notices on (settings), and listed in
 * the account's purchase and coin history either way. A payment of another kind, or not paid, sends nothing
 * (an order's confirmation is its own mail).
 */
export async function sendPaymentReceipt(paymentId: number): Promise<void> {
  try {
    const [row] = await db()
      .select({
        kind: payments.kind,
        status: payments.status,
        amountCents: payments.amountCents,
        currency: payments.currency,
        coins: payments.coins,
        tierKey: payments.tierKey,
        description: payments.description,
        paidAt: payments.paidAt,
        subscriptionId: payments.subscriptionId,
        email: users.email,
        username: users.username,
        language: users.language,
        notices: users.emailAccountNotices,
      })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(eq(payments.id, paymentId));
    if (row?.status !== "paid") return;
    const coins = row.kind === "coins";
    if (coins ? !row.notices : row.kind !== "subscription" && row.kind !== "gift") return;
    const language = languageOf(row.language);
    const t = serverTranslator(language);
    const [sub] = row.subscriptionId
      ? await db().select().from(subscriptions).where(eq(subscriptions.id, row.subscriptionId))
      : [];
    const tier = row.tierKey ? t(`tiers.${row.tierKey}`) : "";
    const upgrade = row.description.endsWith("(upgrade)");
    const item = coins
      ? t("coins.packName", { count: row.coins })
      : row.kind === "gift"
        ? t("payments.receipt.gift")
        : upgrade
          ? t("payments.receipt.upgrade", { tier })
          : t("payments.subscriptionItem", { tier });
    const welcomed = row.tierKey && sub && (upgrade || (await isFirstPayment(sub.id, paymentId)));
    const perks = welcomed && row.tierKey ? perkLinks(perksOf(row.tierKey), await perkPlaces()) : [];
    sendInBackground(
      receiptMail(
        language,
        row.email,
        {
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
        },
        coins ? "/account#coins" : undefined,
        perks,
      ),
    );
  } catch (error) {
    logger.error({ event: "receipt.mail-failed", paymentId, err: error }, "receipt not sent");
  }
}

/** Whether a payment is its subscription's first paid one: a new supporter, not a renewal. */
async function isFirstPayment(subscriptionId: number, paymentId: number): Promise<boolean> {
  const [first] = await db()
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscriptionId), inArray(payments.status, ["paid", "refunded"])))
    .orderBy(asc(payments.paidAt), asc(payments.id))
    .limit(1);
  return first?.id === paymentId;
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
