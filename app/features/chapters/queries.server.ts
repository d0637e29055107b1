import { and, desc, eq, lte } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters } from "#db/schema";
import { readingMinutes } from "~/lib/words";
import { chapterStatus } from "./access";
import { getChapterCatalog } from "./catalog.server";

export type TocChapter = {
  number: number;
  title: string;
  /** `early`: not released yet, but this reader's membership reads it ahead. */
  status: ReturnType<typeof chapterStatus> | "early";
  coinsRequired: number;
  releaseAt: string;
  minutes: number;
};

export type TocVolume = { number: number; title: string; summaryMd: string; chapters: TocChapter[] };

/**
 * Every published chapter grouped by volume, from the chapter catalog (one query per content revision).
 * `readsAhead`: the unreleased chapters this reader may read (reader/access.server.ts `readsAheadOf`).
 */
export async function getTableOfContents(
  now = new Date(),
  readsAhead: Set<number> = new Set(),
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
      status: readsAhead.has(chapter.number) ? "early" : chapterStatus(chapter, now),
      coinsRequired: chapter.coinsRequired,
      releaseAt: chapter.releaseAt.toISOString(),
      minutes: readingMinutes(chapter.wordCount),
    });
  }
  return [...byVolume.values()].sort((a, b) => a.number - b.number);
}

/** The most recently released published chapter, for the home page. */
export async function getLatestChapter(now = new Date()) {
  const [latest] = await db()
    .select({ number: chapters.number, title: chapters.title, releaseAt: chapters.releaseAt })
    .from(chapters)
    .where(and(eq(chapters.status, "published"), lte(chapters.releaseAt, now)))
    .orderBy(desc(chapters.releaseAt), desc(chapters.number))
    .limit(1);
  return latest ? { ...latest, releaseAt: latest.releaseAt.toISOString() } : undefined;
}
