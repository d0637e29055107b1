import { and, asc, eq, inArray, notExists } from "drizzle-orm";
import { db } from "#db/client.server";
import { type Artwork, chapterRedirects, chapters, volumes } from "#db/schema";
import { memoWithChapterTexts } from "~/features/site/revision.server";
import type { Picture } from "~/features/uploads/picture";
import { picturesOfUrls } from "~/features/uploads/store.server";

/** A piece of a chapter's artwork; an uploaded image has its picture (sizes and formats: ADR 33). */
export type ArtworkView = Artwork & { picture?: Picture };

/** What every listing and the reader need to know of a chapter, without its text. */
export type ChapterFacts = {
  id: number;
  number: number;
  title: string;
  volume: { number: number; title: string; summaryMd: string };
  releaseAt: Date;
  coinsRequired: number;
  status: "draft" | "published";
  wordCount: number;
  artwork: ArtworkView[];
  updatedAt: Date;
};

export type ChapterCatalog = {
  byNumber: Map<number, ChapterFacts>;
  /** Published chapters in number order. */
  published: ChapterFacts[];
  /** Every published chapter's release time, ascending (ms). */
  releases: number[];
};

type CatalogRow = Awaited<ReturnType<typeof selectFacts>>[number];

function selectFacts() {
  return db()
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      releaseAt: chapters.releaseAt,
      coinsRequired: chapters.coinsRequired,
      status: chapters.status,
      wordCount: chapters.wordCount,
      artwork: chapters.artwork,
      updatedAt: chapters.updatedAt,
      volumeNumber: volumes.number,
      volumeTitle: volumes.title,
      volumeSummary: volumes.summaryMd,
    })
    .from(chapters)
    .innerJoin(volumes, eq(chapters.volumeId, volumes.id))
    .orderBy(asc(chapters.number))
    .$dynamic();
}

/** The rows as facts, with their artwork's pictures; chapters of one volume share its object. */
async function factsOf(rows: CatalogRow[]): Promise<ChapterFacts[]> {
  const pictureOf = await picturesOfUrls(
    db(),
    rows.flatMap((row) => row.artwork.map((art) => art.url)),
  );
  const volumeOf = new Map<number, ChapterFacts["volume"]>();
  return rows.map(({ volumeNumber, volumeTitle, volumeSummary, artwork, ...chapter }): ChapterFacts => {
    let volume = volumeOf.get(volumeNumber);
    if (!volume) {
      volume = { number: volumeNumber, title: volumeTitle, summaryMd: volumeSummary };
      volumeOf.set(volumeNumber, volume);
    }
    const withPictures = artwork.map((art) => {
      const picture = pictureOf(art.url);
      return picture ? { ...art, picture } : art;
    });
    return { ...chapter, artwork: withPictures, volume };
  });
}

function catalogOf(all: ChapterFacts[]): ChapterCatalog {
  const published = all.filter((chapter) => chapter.status === "published");
  return {
    byNumber: new Map(all.map((chapter) => [chapter.number, chapter])),
    published,
    releases: published.map((chapter) => chapter.releaseAt.getTime()).sort((a, b) => a - b),
  };
}

/**
 * Every chapter's facts, read in one query and kept until the content changes (ADR 54): after an edit of one
 * chapter's text (its word count and edit time are facts here) only that chapter's row is read again. A
 * serial of 1,000 chapters is about 200 KB here; the texts stay in the database.
 */
export const getChapterCatalog = memoWithChapterTexts(
  async () => catalogOf(await factsOf(await selectFacts())),
  async (catalog, numbers) => {
    const fresh = await factsOf(await selectFacts().where(inArray(chapters.number, numbers)));
    const byNumber = new Map(catalog.byNumber);
    for (const chapter of fresh) byNumber.set(chapter.number, chapter);
    // A text change keeps the chapter's number and status: the order and the release times stand.
    return catalogOf([...byNumber.values()].sort((a, b) => a.number - b.number));
  },
);

/** The published chapters before and after one. */
export function neighbours(catalog: ChapterCatalog, number: number) {
  const index = catalog.published.findIndex((chapter) => chapter.number === number);
  if (index < 0) {
    const previous = catalog.published.filter((chapter) => chapter.number < number).at(-1);
    const next = catalog.published.find((chapter) => chapter.number > number);
    return { previous: previous?.number, next: next?.number };
  }
  return { previous: catalog.published[index - 1]?.number, next: catalog.published[index + 1]?.number };
}

/**
 * Whether the chapter is its volume's last (no later published chapter in the same volume, released or not;
 * a draft, which no reader sees, does not count): its page ends with the credits' link.
 */
export function endsVolume(catalog: ChapterCatalog, number: number): boolean {
  const volume = catalog.byNumber.get(number)?.volume.number;
  if (volume === undefined) return false;
  for (const chapter of catalog.published)
    if (chapter.volume.number === volume && chapter.number > number) return false;
  return true;
}

/** The first chapter release after `time` (ms), if any: pages rendered before it may show it locked. */
export async function nextReleaseAfter(time: number): Promise<number | undefined> {
  const { releases } = await getChapterCatalog();
  let low = 0;
  let high = releases.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((releases[middle] as number) <= time) low = middle + 1;
    else high = middle;
  }
  return releases[low];
}

/**
 * The number of the chapter that held `number` before the author moved it (ADR 39), for a number no chapter
 * holds now: /chapter/N then redirects there, so an old link or bookmark still finds its chapter. Temporary
 * (302): a later chapter may take the number again.
 */
export async function movedChapterNumber(number: number): Promise<number | undefined> {
  const [row] = await db()
    .select({ number: chapters.number })
    .from(chapterRedirects)
    .innerJoin(chapters, eq(chapters.id, chapterRedirects.chapterId))
    .where(
      and(
        eq(chapterRedirects.number, number),
        notExists(db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number))),
      ),
    );
  return row?.number;
}
