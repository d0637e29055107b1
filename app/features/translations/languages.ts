import {
  type TranslationKind,
  type TranslationLanguage,
  translationKinds,
  translationLanguages,
} from "#db/schema";

/** The languages a translation may be in, in their order (every language but the original's, English). */
export { translationLanguages };

/** Whether a language has translations (every language but the original's, English). */
export function isTranslationLanguage(language: unknown): language is TranslationLanguage {
  return (translationLanguages as readonly unknown[]).includes(language);
}

/** The kind of content (other than chapters) a name stands for, if any. */
export function translationKindOf(name: unknown): TranslationKind | undefined {
  return translationKinds.find((kind) => kind === name);
}
