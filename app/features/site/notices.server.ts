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
