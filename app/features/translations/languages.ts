import { type TranslationLanguage, translationLanguages } from "#db/schema";

/** Whether a language has translations (every language but the original's, English). */
export function isTranslationLanguage(language: unknown): language is TranslationLanguage {
  return (translationLanguages as readonly unknown[]).includes(language);
}
