import { releaseTime } from "~/lib/clock.server";
import { readingMinutes } from "~/lib/words";
import { chapterStatus } from "./access";
import { getChapterCatalog } from "./catalog.server";

export type TocChapter = {
  number: number;
  title: string;
  /**
   * `early`: not released yet, but this reader's membership reads it ahead; `unlocked`: paid, and this
   * reader unlocked it. Both only in a signed-in reader's own table (never a kept page).
   */
  status: ReturnType<typeof chapterStatus> | "early" | "unlocked";
  coinsRequired: number;
  releaseAt: string;
  minutes: number;
  words: number;
  /** "en" on a page in another language when the title is the original's (no translation there). */
  lang?: "en";
};

export type TocVolume = {
  number: number;
  title: string;
  summaryMd: string;
  chapters: TocChapter[];
  /** "en" on a page in another language when the title and summary are the original's. */
  lang?: "en";
};

function tocStatus(
  chapter: { number: number; releaseAt: Date; coinsRequired: number },
  now: Date,
  readsAhead: Set<number>,
  unlocked: Set<number>,
): TocChapter["status"] {
  if (readsAhead.has(chapter.number)) return "early";
  const status = chapterStatus(chapter, now);
  return status === "paid" && unlocked.has(chapter.number) ? "unlocked" : status;
}

/**
 * Every published chapter grouped by volume, from the chapter catalog (one query per content revision).
 * `readsAhead`: the unreleased chapters this reader may read (reader/access.server.ts `readsAheadOf`);
 * `unlocked`: the paid chapters this reader unlocked.
 */
export async function getTableOfContents(
  now = releaseTime(),
  readsAhead: Set<number> = new Set(),
  unlocked: Set<number> = new Set(),
): Promise<TocVolume[]> {
  const { published } = await getChapterCatalog();
  const byVolume = new Map<number, TocVolume>();
  for (const chapter of published) {
    let volume = byVolume.get(chapter.volume.number);
    if (!volume) {
      volume = { ...chapter.volume, chapters: [] };
      byVolume.set(chapter.volume.number, volume);
    }
    volume.chapters.push({
      number: chapter.number,
      title: chapter.title,
      status: tocStatus(chapter, now, readsAhead, unlocked),
      coinsRequired: chapter.coinsRequired,
      releaseAt: chapter.releaseAt.toISOString(),
      minutes: readingMinutes(chapter.wordCount),
      words: chapter.wordCount,
    });
  }
  return [...byVolume.values()].sort((a, b) => a.number - b.number);
}

/**
 * The most recently released published chapter with its own status (free or its price; released, so never
 * locked), for the home page kept for every visitor: no reader's unlocks in it.
 */
export async function getLatestChapter(now = releaseTime()) {
  const { published } = await getChapterCatalog();
  let latest: (typeof published)[number] | undefined;
  for (const chapter of published) {
    if (chapter.releaseAt.getTime() > now.getTime()) continue;
    const newer =
      !latest ||
      chapter.releaseAt.getTime() > latest.releaseAt.getTime() ||
      (chapter.releaseAt.getTime() === latest.releaseAt.getTime() && chapter.number > latest.number);
    if (newer) latest = chapter;
  }
  if (!latest) return undefined;
  return {
    number: latest.number,
    title: latest.title,
    status: chapterStatus(latest, now),
    coinsRequired: latest.coinsRequired,
    releaseAt: latest.releaseAt.toISOString(),
  };
}
