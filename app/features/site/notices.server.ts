import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { getEnv } from "~/lib/env.server";

/**
 * The note every page shows while the test payment provider takes payments on a public site (ADR 16), in
 * the page's language, or undefined. It travels with the root's data, so the browser's core catalogue
 * carries no text that most sites never show.
 */
export function simulatedPaymentsNotice(language: Language): string | undefined {
  return getEnv().simulatedPayments ? serverTranslator(language)("notices.simulatedPayments") : undefined;
}

/**
 * The banner of a signed-in reader whose e-mail address is not confirmed yet (ADR 56), in the page's
 * language; with the root's data, like the note above, so it costs the core catalogue nothing. Every page
 * shows it but a chapter's reading page, which signed-in readers share as one kept page (ADR 49): it must
 * carry nothing of one reader's, and the text is left to read undisturbed.
 */
export function unconfirmedEmailNotice(
  language: Language,
  user: { emailConfirmed: boolean } | undefined,
  pathname: string,
): string | undefined {
  if (!user || user.emailConfirmed || READING_PAGE.test(pathname)) return undefined;
  return serverTranslator(language)("notices.confirmEmail");
}

const READING_PAGE = /^\/chapter\/\d{1,6}(?:\.data)?$/;
