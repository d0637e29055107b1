import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import type { MailMessage } from "./mailer.server";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * A plain, translated message with a text part and a simple HTML part. `quote` is someone's own text,
 * shown as written after the translated paragraphs (an inquiry's message).
 */
function compose(
  language: Language,
  to: string,
  key:
    | "reset"
    | "passwordChanged"
    | "emailChanged"
    | "welcome"
    | "confirmEmail"
    | "signInCode"
    | "inquiry.author"
    | "inquiry.copy"
    | "shipped"
    | "qaPublished"
    | "announcement",
  values: Record<string, string>,
  link?: { href: string; label: string },
  quote?: string,
): MailMessage {
  const t = serverTranslator(language);
  const subject = t(`mail.${key}.subject`, values);
  const paragraphs = t(`mail.${key}.body`, values).split("\n\n");
  const signature = t("mail.signature", values);
  const text = [...paragraphs, ...(quote ? [quote] : []), ...(link ? [link.href] : []), signature].join(
    "\n\n",
  );
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(quote ? [`<blockquote>${escapeHtml(quote).replace(/\n/g, "<br>")}</blockquote>`] : []),
    ...(link ? [`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`] : []),
    `<p>${escapeHtml(signature)}</p>`,
  ].join("\n");
  return { to, subject, text, html };
}

/**
 * The author's announcement (ADR 95): a translated greeting in the reader's language, the announcement as the
 * author wrote it (its title and Markdown text, in the author's language), the site's link, and how to stop
 * these e-mails, with the headers that give mail programs their one-click unsubscribe (as release e-mails).
 */
export function announcementMail(
  language: Language,
  to: string,
  values: {
    username: string;
    site: string;
    title: string;
    text: string;
    link: string;
    unsubscribeLink: string;
  },
): MailMessage {
  const t = serverTranslator(language);
  const message = compose(
    language,
    to,
    "announcement",
    values,
    { href: values.link, label: t("mail.announcement.button", values) },
    `${values.title}\n\n${values.text}`,
  );
  const footer = t("mail.announcement.footer", values);
  const stop = t("mail.release.unsubscribe", values);
  return {
    ...message,
    text: `${message.text}\n\n${footer}\n${stop}: ${values.unsubscribeLink}`,
    html: `${message.html}\n<p><small>${escapeHtml(footer)} <a href="${escapeHtml(values.unsubscribeLink)}">${escapeHtml(stop)}</a></small></p>`,
    headers: {
      "List-Unsubscribe": `<${values.unsubscribeLink}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** A month's Q&A is out (ADR 82): its title, the link to read it, and where the choice is changed. */
export function qaPublishedMail(
  language: Language,
  to: string,
  values: { username: string; site: string; title: string; link: string; settingsLink: string },
) {
  return compose(language, to, "qaPublished", values, {
    href: values.link,
    label: serverTranslator(language)("mail.qaPublished.button"),
  });
}

export function resetPasswordMail(
  language: Language,
  to: string,
  values: { username: string; site: string; link: string },
) {
  return compose(language, to, "reset", values, {
    href: values.link,
    label: serverTranslator(language)("mail.reset.button"),
  });
}

export function welcomeMail(
  language: Language,
  to: string,
  values: { username: string; site: string; link: string; coins: string },
) {
  return compose(language, to, "welcome", values, {
    href: values.link,
    label: serverTranslator(language)("mail.welcome.button"),
  });
}

/**
 * The code a sign-in from a new device asks for (ADR 65): six digits, valid ten minutes, and a word on what
 * to do when the reader did not try to sign in.
 */
export function signInCodeMail(
  language: Language,
  to: string,
  values: { username: string; site: string; code: string; minutes: string },
) {
  return compose(language, to, "signInCode", values);
}

/** Confirms an address again: asked for by its reader, or after the account's address changed (ADR 56). */
export function confirmEmailMail(
  language: Language,
  to: string,
  values: { username: string; site: string; link: string },
) {
  return compose(language, to, "confirmEmail", values, {
    href: values.link,
    label: serverTranslator(language)("mail.confirmEmail.button"),
  });
}

export function passwordChangedMail(
  language: Language,
  to: string,
  values: { username: string; site: string },
) {
  return compose(language, to, "passwordChanged", values);
}

export function emailChangedMail(
  language: Language,
  to: string,
  values: { username: string; site: string; email: string },
) {
  return compose(language, to, "emailChanged", values);
}

/**
 * An inquiry about a product (ADR 26): to the author, who answers with Reply (Reply-To is the sender), in
 * the site's default language; and the sender's copy, in the language of the page they wrote from.
 */
export function inquiryMails(
  languages: { author: Language; sender: Language },
  to: { author: string; sender: string },
  values: { name: string; email: string; product: string; site: string; author: string; language: string },
  message: string,
): { toAuthor: MailMessage; copy: MailMessage } {
  return {
    toAuthor: {
      ...compose(languages.author, to.author, "inquiry.author", values, undefined, message),
      replyTo: to.sender,
    },
    copy: compose(languages.sender, to.sender, "inquiry.copy", values, undefined, message),
  };
}

export type OrderMailValues = {
  username: string;
  site: string;
  number: string;
  link: string;
  /** Each line as the reader sees it: "2 × Art Print 11x17 (Moonrise) — $50". */
  lines: { name: string; quantity: number; amount: string }[];
  total: string;
  /** The shipping address, a line each; empty for an order with nothing to ship. */
  address: string[];
};

/** The order confirmation (ADR 25): its number, lines, total and shipping address, in the buyer's language. */
export function orderConfirmationMail(language: Language, to: string, values: OrderMailValues): MailMessage {
  const t = serverTranslator(language);
  const named = { username: values.username, site: values.site, number: values.number };
  const lines = values.lines.map((line) =>
    t("mail.order.line", { quantity: String(line.quantity), name: line.name, amount: line.amount }),
  );
  const blocks: string[][] = [
    t("mail.order.body", named).split("\n\n"),
    [t("mail.order.lines"), ...lines, t("mail.order.total", { total: values.total })],
    ...(values.address.length ? [[t("mail.order.shipTo"), ...values.address]] : []),
  ];
  const signature = t("mail.signature", named);
  const label = t("mail.order.button");
  const text = [...blocks.map((block) => block.join("\n")), values.link, signature].join("\n\n");
  const html = [
    ...blocks.map((block) => `<p>${block.map(escapeHtml).join("<br>\n")}</p>`),
    `<p><a href="${escapeHtml(values.link)}">${escapeHtml(label)}</a></p>`,
    `<p>${escapeHtml(signature)}</p>`,
  ].join("\n");
  return { to, subject: t("mail.order.subject", named), text, html };
}

/** The order is on its way: its carrier and tracking number, a link to the order, in the buyer's language. */
export function shippedMail(
  language: Language,
  to: string,
  values: { username: string; site: string; number: string; carrier: string; tracking: string; link: string },
) {
  return compose(language, to, "shipped", values, {
    href: values.link,
    label: serverTranslator(language)("mail.order.button"),
  });
}

export type ReleaseMailValues = {
  username: string;
  site: string;
  number: string;
  title: string;
  /** The reader's tier, named in their language: only for an early notice. */
  tier?: string;
  /** A free chapter's opening as plain text, or a paid one's invitation to unlock it: never a locked text. */
  excerpt: string;
  link: string;
  unsubscribeLink: string;
};

/**
 * A chapter is out, or open early to the reader's tier (ADR 45): its title, an excerpt and a link, then how to
 * stop these e-mails. The headers give mail programs their own unsubscribe button (RFC 2369) that works in one
 * click, without opening a page (RFC 8058).
 */
export function releaseMail(
  language: Language,
  to: string,
  kind: "release" | "early" | "translation",
  values: ReleaseMailValues,
): MailMessage {
  const t = serverTranslator(language);
  const named = { ...values, tier: values.tier ?? "" };
  const paragraphs = t(`mail.${kind}.body`, named).split("\n\n");
  const button = t("mail.release.button", named);
  const footer = t("mail.release.footer", named);
  const stop = t("mail.release.unsubscribe", named);
  const signature = t("mail.signature", named);
  const text = [
    ...paragraphs,
    values.excerpt,
    `${button}: ${values.link}`,
    signature,
    `${footer}\n${stop}: ${values.unsubscribeLink}`,
  ].join("\n\n");
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<blockquote>${escapeHtml(values.excerpt)}</blockquote>`,
    `<p><a href="${escapeHtml(values.link)}">${escapeHtml(button)}</a></p>`,
    `<p>${escapeHtml(signature)}</p>`,
    `<p><small>${escapeHtml(footer)} <a href="${escapeHtml(values.unsubscribeLink)}">${escapeHtml(stop)}</a></small></p>`,
  ].join("\n");
  return {
    to,
    subject: t(`mail.${kind}.subject`, named),
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${values.unsubscribeLink}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
