import { chapterTitles } from "~/features/translations/reading.server";
import type { Language } from "~/i18n/config";
import type { ChapterFacts } from "./catalog.server";

/**
 * Chapters' titles in a language, for the texts written outside a page (the feeds, ADR 87): each chapter's
 * translated title (ADR 86), the original's where it has none. One query for them all, none for English.
 */
export async function chapterTitlesIn(language: Language) {
  const titles = await chapterTitles(language);
  return (chapter: Pick<ChapterFacts, "number" | "title">) => titles.get(chapter.number) ?? chapter.title;
}
