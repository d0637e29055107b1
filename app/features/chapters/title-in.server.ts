import type { Language } from "~/i18n/config";
import type { ChapterFacts } from "./catalog.server";

/**
 * A chapter's title in a language, for the texts written outside a page (the feeds, ADR 87). The one place the
 * translated titles plug in: until a chapter has translations it is the original's title in every language.
 */
export function chapterTitleIn(chapter: Pick<ChapterFacts, "title">, _language: Language): string {
  return chapter.title;
}
