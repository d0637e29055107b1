import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { getEnv } from "~/lib/env.server";
import type { MailMessage } from "./mailer.server";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A paragraph that names a place on the site: its link's text, a word on it, and where it leads. */
export type MailLink = { label: string; note: string; href: string };

const textOf = (p: string | MailLink) => (typeof p === "string" ? p : `${p.label}: ${p.note}\n${p.href}`);

const htmlOf = (p: string | MailLink) =>
  typeof p === "string"
    ? `<p>${escapeHtml(p)}</p>`
    : `<p><a href="${escapeHtml(p.href)}">${escapeHtml(p.label)}</a>: ${escapeHtml(p.note)}</p>`;

/**
 * A notice about the reader's account (a receipt, a refund, a coin adjustment): paragraphs (the first is the
 * greeting), a link to the account (or `path`) with its button's text, the signature.
 */
export function accountMail(
  language: Language,
  to: string,
  subject: string,
  paragraphs: (string | MailLink)[],
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
    text: [...paragraphs.map(textOf), link, signature].join("\n\n"),
    html: [
      ...paragraphs.map(htmlOf),
      `<p><a href="${escapeHtml(link)}">${escapeHtml(t(button))}</a></p>`,
      `<p>${escapeHtml(signature)}</p>`,
    ].join("\n"),
  };
}
