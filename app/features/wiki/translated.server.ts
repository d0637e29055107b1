import { originalMark, textField, translationsOf } from "~/features/translations/reading.server";

/**
 * Wiki pages as a list in `language` shows them (ADR 86): each title and summary from its translation, the
 * original's where it has none, marked `lang: "en"` then. One query for the list, none for English.
 */
export async function wikiListIn<P extends { section: string; slug: string; title: string; summary: string }>(
  pages: P[],
  language: string,
): Promise<(P & { lang?: "en" })[]> {
  const texts = await translationsOf(
    "wiki",
    language,
    pages.map((page) => `${page.section}/${page.slug}`),
  );
  return pages.map((page) => {
    const translated = texts.get(`${page.section}/${page.slug}`);
    return {
      ...page,
      ...originalMark(translated, language),
      title: textField(translated, "title", page.title),
      summary: textField(translated, "summary", page.summary),
    };
  });
}
