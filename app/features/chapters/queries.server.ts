import { and, asc, desc, eq, lte } from "drizzle-orm";
import { db } from "#db/client.server";
import { chapters, volumes } from "#db/schema";
import { readingMinutes } from "~/lib/words";
import { chapterStatus } from "./access";

export type TocChapter = {
  number: number;
  title: string;
  status: ReturnType<typeof chapterStatus>;
  coinsRequired: number;
  releaseAt: string;
  minutes: number;
};

export type TocVolume = { number: number; title: string; summaryMd: string; chapters: TocChapter[] };

/** Every published chapter grouped by volume, in one query. */
export async function getTableOfContents(now = new Date()): Promise<TocVolume[]> {
  const rows = await db()
    .select({
      volumeNumber: volumes.number,
      volumeTitle: volumes.title,
      volumeSummary: volumes.summaryMd,
      number: chapters.number,
      title: chapters.title,
      releaseAt: chapters.releaseAt,
      coinsRequired: chapters.coinsRequired,
      wordCount: chapters.wordCount,
    })
    .from(chapters)
    .innerJoin(volumes, eq(chapters.volumeId, volumes.id))
    .where(eq(chapters.status, "published"))
    .orderBy(asc(volumes.number), asc(chapters.number));
  const byVolume = new Map<number, TocVolume>();
  for (const row of rows) {
    let volume = byVolume.get(row.volumeNumber);
    if (!volume) {
      volume = {
        number: row.volumeNumber,
        title: row.volumeTitle,
        summaryMd: row.volumeSummary,
        chapters: [],
      };
      byVolume.set(row.volumeNumber, volume);
    }
    volume.chapters.push({
      number: row.number,
      title: row.title,
      status: chapterStatus(row, now),
      coinsRequired: row.coinsRequired,
      releaseAt: row.releaseAt.toISOString(),
      minutes: readingMinutes(row.wordCount),
    });
  }
  return [...byVolume.values()];
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
