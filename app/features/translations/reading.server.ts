import { and, eq, inArray } from "drizzle-orm";
import { db } from "#db/client.server";
import * as t from "#db/schema";
import { type TranslationKind, type TranslationLanguage, translationKinds } from "#db/schema";
import { memoByLanguage } from "~/features/site/revision.server";
import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { isTranslationLanguage } from "./languages";
import type { Untranslated } from "./untranslated-note";

/**
 * What a page shows of the author's content in the reader's language (ADR 86): a translation's fields and body
 * where one exists, else nothing (the page shows the original). The lists are read once per language and kept
 * until that language's texts or the content change (`memoByLanguage`); the page cache keeps pages per language,
 * and a translation's update retires only its language's pages.
 */

export type TranslatedText = { fields: Record<string, unknown>; body: string };

/** Every translation of one kind in `language`, by key: read once per language until its texts change. */
const kindIn = Object.fromEntries(
  translationKinds.map((kind) => [
    kind,
    memoByLanguage(async (language: TranslationLanguage) => {
      const rows = await db()
        .select({ key: t.translations.key, fields: t.translations.fields, body: t.translations.bodyMd })
        .from(t.translations)
        .where(and(eq(t.translations.kind, kind), eq(t.translations.language, language)));
      return new Map(rows.map((row) => [row.key, { fields: row.fields, body: row.body }]));
    }),
  ]),
) as Record<TranslationKind, (language: TranslationLanguage) => Promise<Map<string, TranslatedText>>>;

/** The translations of one kind in `language`, by key (all of the kind, or the `keys` asked). */
export async function translationsOf(
  kind: TranslationKind,
  language: string,
  keys?: string[],
): Promise<Map<string, TranslatedText>> {
  if (!isTranslationLanguage(language) || keys?.length === 0) return new Map();
  const all = await kindIn[kind](language);
  if (!keys) return all;
  const asked = new Map<string, TranslatedText>();
  for (const key of keys) {
    const text = all.get(key);
    if (text) asked.set(key, text);
  }
  return asked;
}

/** One original's translation in `language`, or undefined. */
export async function translationOf(
  kind: TranslationKind,
  key: string,
  language: string,
): Promise<TranslatedText | undefined> {
  return (await translationsOf(kind, language, [key])).get(key);
}

/** The languages one original is translated into (the originals' own, English, not among them). */
export async function languagesOf(kind: TranslationKind, key: string): Promise<TranslationLanguage[]> {
  const rows = await db()
    .select({ language: t.translations.language })
    .from(t.translations)
    .where(and(eq(t.translations.kind, kind), eq(t.translations.key, key)));
  return rows.map((row) => row.language).sort();
}

/** A chapter's translation in `language` (its text as stored, rendered at import), or undefined. */
export async function chapterTranslation(chapterId: number, language: string) {
  if (!isTranslationLanguage(language)) return undefined;
  const [row] = await db()
    .select()
    .from(t.chapterTranslations)
    .where(and(eq(t.chapterTranslations.chapterId, chapterId), eq(t.chapterTranslations.language, language)));
  return row;
}

/** The titles and texts of `chapterIds`' translations, by chapter id then language (the release e-mails). */
export async function chapterTranslationTexts(
  chapterIds: number[],
): Promise<Map<number, Map<string, { title: string; bodyMd: string }>>> {
  const texts = new Map<number, Map<string, { title: string; bodyMd: string }>>();
  if (chapterIds.length === 0) return texts;
  const rows = await db()
    .select({
      chapterId: t.chapterTranslations.chapterId,
      language: t.chapterTranslations.language,
      title: t.chapterTranslations.title,
      bodyMd: t.chapterTranslations.bodyMd,
    })
    .from(t.chapterTranslations)
    .where(inArray(t.chapterTranslations.chapterId, chapterIds));
  for (const { chapterId, language, ...text } of rows)
    texts.set(chapterId, (texts.get(chapterId) ?? new Map()).set(language, text));
  return texts;
}

/** The languages a chapter is translated into. */
export async function chapterLanguages(chapterId: number): Promise<TranslationLanguage[]> {
  const rows = await db()
    .select({ language: t.chapterTranslations.language })
    .from(t.chapterTranslations)
    .where(eq(t.chapterTranslations.chapterId, chapterId));
  return rows.map((row) => row.language).sort();
}

/**
 * Chapters' translations in `language` by chapter number: their titles and the counts of their text (the table
 * of contents shows the length of what the reader will read).
 */
export async function translatedChapters(
  language: string,
): Promise<Map<number, { title: string; wordCount: number; cjkCount: number }>> {
  if (!isTranslationLanguage(language)) return new Map();
  return chaptersIn(language);
}

/** `translatedChapters`, read once per language until its texts change (a chapter's number is a broad change). */
const chaptersIn = memoByLanguage(async (language: TranslationLanguage) => {
  const rows = await db()
    .select({
      number: t.chapters.number,
      title: t.chapterTranslations.title,
      wordCount: t.chapterTranslations.wordCount,
      cjkCount: t.chapterTranslations.cjkCount,
    })
    .from(t.chapterTranslations)
    .innerJoin(t.chapters, eq(t.chapters.id, t.chapterTranslations.chapterId))
    .where(eq(t.chapterTranslations.language, language));
  return new Map(rows.map(({ number, ...chapter }) => [number, chapter]));
});

/** Chapters' translated titles in `language`, by chapter number (neighbours' links, the home page, feeds). */
export async function chapterTitles(language: string): Promise<Map<number, string>> {
  const chapters = await translatedChapters(language);
  return new Map([...chapters].map(([number, chapter]) => [number, chapter.title]));
}

/**
 * An item of a list a page in `language` shows in the original, having no translation there: `{ lang: "en" }`,
 * spread into the item so that its text says its language (screen readers, hyphenation, fonts); else nothing
 * (the page's language applies). Lists fall back item by item, without the page's note (ADR 86, ADR 97).
 */
export function originalMark(translated: unknown, language: string): { lang?: "en" } {
  return translated === undefined && isTranslationLanguage(language) ? { lang: "en" } : {};
}

/** A translated field when it is a non-empty string, else the original's. */
export function textField(translated: TranslatedText | undefined, name: string, original: string): string {
  const value = translated?.fields[name];
  return typeof value === "string" && value.length > 0 ? value : original;
}

/** A translated list of texts (a tier's perks) when it is one, else the original's. */
export function listField(
  translated: TranslatedText | undefined,
  name: string,
  original: string[],
): string[] {
  const value = translated?.fields[name];
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string" && item)
    ? (value as string[])
    : original;
}

/** A translation's body when it has one, else the original's. */
export function bodyText(translated: TranslatedText | undefined, original: string): string {
  return translated?.body.trim() ? translated.body : original;
}

/**
 * One original as a page in `language` shows it: its translation's fields and body, or the original's with the
 * versions there are (English first) when it has none in that language (the page then says so).
 */
export async function shownIn(
  kind: TranslationKind,
  key: string,
  language: string,
): Promise<{ translated?: TranslatedText; untranslated?: Untranslated }> {
  if (!isTranslationLanguage(language)) return {};
  const translated = await translationOf(kind, key, language);
  if (translated) return { translated };
  return { untranslated: await untranslatedIn(kind, key, language) };
}

/** The note of an original a page in `language` shows untranslated (none on an English page). */
export async function untranslatedIn(
  kind: TranslationKind,
  key: string,
  language: string,
): Promise<Untranslated | undefined> {
  if (!isTranslationLanguage(language)) return undefined;
  return untranslatedNote(language, await languagesOf(kind, key));
}

/** The note of content shown in English on a page in `language`, with the versions there are (English first). */
export function untranslatedNote(
  language: TranslationLanguage,
  translated: TranslationLanguage[],
): Untranslated {
  const t = serverTranslator(language);
  return {
    versions: ["en", ...translated] as Language[],
    note: t("notices.untranslated"),
    label: t("notices.versions"),
  };
}
