import { chapterStatus } from "~/features/chapters/access";
import { type ChapterFacts, getChapterCatalog } from "~/features/chapters/catalog.server";
import { excerptOfHtml } from "~/features/content/excerpt.server";
import { boundedMemo } from "~/lib/bounded-memo";
import { releaseTime } from "~/lib/clock.server";
import { chapterHtml } from "./access.server";

/** How long a page's description is: what search results show. */
const SUMMARY_CHARS = 155;

/** Summaries made, by chapter version (id and edit time); the oldest dropped past a serial's length. */
const summaries = boundedMemo<Promise<string>>(2000);

/**
 * The opening a page's description and link previews show of a chapter: only for a chapter every visitor
 * may read (released and free), the rule of the feeds; undefined for a paid or scheduled one, whose text is
 * never shown to someone who has not unlocked it, whoever views the page (security model S55). Made from the
 * chapter's rendered text, which the page renders anyway (one Markdown pass per version).
 */
export async function chapterSummary(chapter: ChapterFacts, now: Date): Promise<string | undefined> {
  if (chapterStatus(chapter, now) !== "free") return undefined;
  const key = `${chapter.id}:${chapter.updatedAt.getTime()}`;
  return summaries(key, async () => excerptOfHtml(await chapterHtml(chapter), SUMMARY_CHARS));
}

/**
 * What a chapter page tells search engines and link previews (ADR 46), decided as for a visitor whoever
 * views it, so a kept page shared by readers who unlocked the chapter says no more than a visitor's: the
 * opening and artwork of a free released chapter; of any other, its number and title only (the card).
 */
export type ChapterShare = NonNullable<Awaited<ReturnType<typeof chapterShare>>>;

export async function chapterShare(number: number, now = releaseTime()) {
  const chapter = (await getChapterCatalog()).byNumber.get(number);
  if (!chapter) return undefined;
  const status = chapterStatus(chapter, now);
  const art = status === "free" ? chapter.artwork.find((piece) => piece.picture) : undefined;
  return {
    status,
    summary: await chapterSummary(chapter, now),
    ...(status === "locked" ? {} : { published: chapter.releaseAt.toISOString() }),
    image: art?.picture
      ? { url: art.picture.src, width: art.picture.width, height: art.picture.height, alt: art.caption ?? "" }
      : { url: `/card/chapter/${chapter.number}.png`, width: 1200, height: 630, alt: "" },
  };
}
