import type { TocVolume } from "~/features/chapters/queries.server";
import {
  bodyText,
  chapterTitles,
  textField,
  translationOf,
  translationsOf,
} from "~/features/translations/reading.server";

/**
 * The table of contents in `language` (ADR 86): each chapter's and volume's title, each volume's summary and the
 * synopsis from their translations, the original's where one has none (a list falls back silently). One query
 * a kind, none for English.
 */
export async function tocIn(volumes: TocVolume[], synopsis: string, language: string) {
  const [titles, volumeTexts, site] = await Promise.all([
    chapterTitles(language),
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
        title: textField(translated, "title", volume.title),
        summaryMd: bodyText(translated, volume.summaryMd),
        chapters: volume.chapters.map((chapter) => ({
          ...chapter,
          title: titles.get(chapter.number) ?? chapter.title,
        })),
      };
    }),
    synopsis: textField(site, "synopsis", synopsis),
  };
}
