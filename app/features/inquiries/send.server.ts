import { createHash } from "node:crypto";
import { consume, type Rule, Throttled } from "~/features/auth/throttle.server";
import { getMailer, sendWithRetries } from "~/features/mail/mailer.server";
import { inquiryMails } from "~/features/mail/templates.server";
import { getProduct } from "~/features/shop/queries.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, type Language, languageNames } from "~/i18n/config";
import type { RequestContext } from "~/lib/context";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import type { Inquiry } from "./schema";
import { forgetInquiry, keepInquiry } from "./store.server";

/** Per client address: INQUIRY_LIMIT_PER_HOUR (default 5), read when used (ADR 26). */
export function ipRule(): Rule {
  return { limit: getEnv().INQUIRY_LIMIT_PER_HOUR, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };
}

/** Per sender address, whatever client sends it: a few an hour, so no one is flooded through the form. */
export const emailRule: Rule = { limit: 3, windowSeconds: 60 * 60, blockSeconds: 15 * 60 };

/** A product one inquires about rather than buys: it exists and is priced 0 (docs/product-rules.md "Shop"). */
export async function inquirableProduct(id: number | undefined) {
  const product = id === undefined ? undefined : await getProduct(id);
  return product && product.priceCents === 0 ? product : undefined;
}

/** The throttle key of a sender: a digest, so the rate-limit table never holds the address itself. */
export function emailKey(email: string): string {
  return `inquiry:email:${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 32)}`;
}

export type SendOutcome =
  | { ok: true }
  | { ok: false; throttled: Throttled }
  | { ok: false; mailFailed: true };

/**
 * Counts the inquiry against both limits, keeps it for the admin (ADR 59), then mails the author (Reply-To:
 * the sender) while the sender waits, so a mail server failure can be shown and the form kept; the kept row
 * is then taken back, as the sender will send it again. The sender's copy goes after the answer, with
 * retries: the author has the inquiry by then, and sending it again would make a duplicate.
 */
export async function sendInquiry(
  inquiry: Inquiry,
  product: { id: number; name: string },
  language: Language,
  context: Pick<RequestContext, "requestId" | "ip" | "afterResponse">,
): Promise<SendOutcome> {
  const meta = { requestId: context.requestId, ip: context.ip };
  try {
    await consume(`inquiry:ip:${context.ip}`, ipRule(), meta);
    await consume(emailKey(inquiry.email), emailRule, meta);
  } catch (error) {
    if (error instanceof Throttled) return { ok: false, throttled: error };
    throw error;
  }
  const site = await getSiteSettings();
  const authorEmail = getEnv().AUTHOR_EMAIL ?? site.email;
  const { toAuthor, copy } = inquiryMails(
    { author: defaultLanguage, sender: language },
    { author: authorEmail, sender: inquiry.email },
    {
      name: inquiry.name,
      email: inquiry.email,
      product: product.name,
      site: site.title,
      author: site.author,
      language: languageNames[language],
    },
    inquiry.message,
  );
  // Neither the message nor the sender's address goes to the log: the domain says which mail system (ADR 16).
  const line = {
    ...meta,
    productId: product.id,
    senderDomain: inquiry.email.slice(inquiry.email.lastIndexOf("@") + 1).toLowerCase(),
    messageLength: inquiry.message.length,
  };
  const kept = await keepInquiry(inquiry, product, language);
  try {
    await getMailer().send(toAuthor);
  } catch (error) {
    await forgetInquiry(kept);
    logger.error({ event: "inquiry.failed", ...line, err: error }, "inquiry could not be mailed");
    return { ok: false, mailFailed: true };
  }
  logger.info({ event: "inquiry.sent", ...line }, "inquiry mailed to the author");
  context.afterResponse(() => sendWithRetries(copy));
  return { ok: true };
}
