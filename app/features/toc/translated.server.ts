import type { TocVolume } from "~/features/chapters/queries.server";
import {
  bodyText,
  originalMark,
  textField,
  translatedChapters,
  translationOf,
  translationsOf,
} from "~/features/translations/reading.server";
import { readingMinutes } from "~/lib/words";

/**
 * The table of contents in `language` (ADR 86): each chapter's and volume's title, each chapter's length, each
 * volume's summary and the synopsis from their translations, the original's where one has none (a list falls
 * back item by item, each such item marked `lang: "en"`). One query a kind, none for English.
 */
export async function tocIn(volumes: TocVolume[], synopsis: string, language: string) {
  const [chapterTexts, volumeTexts, site] = await Promise.all([
    translatedChapters(language),
    translationsOf(
      "volume",
      language,
      volumes.map((volume) => String(volume.number)),
    ),
    translationOf("site", "site", language),
  ]);
  return {
    volumes: volumes.map((volume) => {
      const translated = volumeTexts.get(String(volume.number));
      return {
        ...volume,
        ...originalMark(translated, language),
        title: textField(translated, "title", volume.title),
        summaryMd: bodyText(translated, volume.summaryMd),
        chapters: volume.chapters.map((chapter) => {
          const shown = chapterTexts.get(chapter.number);
          // The length of the text the reader will read: the translation's where there is one.
          return shown
            ? {
                ...chapter,
                title: shown.title,
                words: shown.wordCount,
                minutes: readingMinutes(shown.wordCount, shown.cjkCount),
              }
            : { ...chapter, ...originalMark(shown, language) };
        }),
      };
    }),
    synopsis: textField(site, "synopsis", synopsis),
    // The synopsis's language when a translated page shows the original's.
    ...(textField(site, "synopsis", "") ? {} : prefixedMark(originalMark(undefined, language))),
  };
}

/** The synopsis's mark, named for it. */
const prefixedMark = ({ lang }: { lang?: "en" }) => (lang ? { synopsisLang: lang } : {});
