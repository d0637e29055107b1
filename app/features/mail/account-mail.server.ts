import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { getEnv } from "~/lib/env.server";
import type { MailMessage } from "./mailer.server";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * A notice about the reader's account (a receipt, a refund, a coin adjustment): paragraphs (the first is the
 * greeting), a link to the account (or `path`) with its button's text, the signature.
 */
export function accountMail(
  language: Language,
  to: string,
  subject: string,
  paragraphs: string[],
  values: { site: string },
  path = "/account#subscription",
  button = "payments.receipt.button",
): MailMessage {
  const t = serverTranslator(language);
  const link = `${getEnv().origin}${path}`;
  const signature = t("mail.signature", values);
  return {
    to,
    subject,
    text: [...paragraphs, link, signature].join("\n\n"),
    html: [
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(link)}">${escapeHtml(t(button))}</a></p>`,
      `<p>${escapeHtml(signature)}</p>`,
    ].join("\n"),
  };
}
