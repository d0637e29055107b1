import type { TocChapter, TocVolume } from "~/features/chapters/queries.server";
import { continueTarget, type ProgressMark } from "~/features/reader/continue";
import { readingMinutes } from "~/lib/words";
import { titleMatcher } from "./search";

/**
 * A serial up to this many chapters shows every volume open. A longer one shows one volume open and the others
 * as a heading with their range and a link: a table of 1,000 chapters was 9,000 elements for the browser to
 * build and hydrate (ADR 37).
 */
export const TOC_ALL_OPEN_UP_TO = 120;

/**
 * Whether the table of contents of a serial of `published` chapters opens the volume a signed-in reader would
 * continue in (a long serial; a short one has every volume open): then their page depends on the chapter they
 * read last, and readers are kept apart by it (ADR 101).
 */
export const opensReadersVolume = (published: number) => published > TOC_ALL_OPEN_UP_TO;

/** A volume as the table shows it: its chapters only when open. */
export type TocPageVolume = Omit<TocVolume, "chapters"> & {
  chapterCount: number;
  /** The first and last chapter numbers (0 for an empty volume). */
  first: number;
  last: number;
  chapters?: TocChapter[];
  /** Its released coin chapters this reader has not unlocked, and their price (the "unlock the volume" offer). */
  locked: { count: number; coins: number };
};

/** The serial's totals: released chapters, their words and the hours they take at the reading-time rule. */
export type TocTotals = { chapters: number; words: number; hours: number };

export type TocPage = {
  volumes: TocPageVolume[];
  /** Every chapter a reader may open, ascending: where "Continue reading" may lead. */
  readable: number[];
  totals: TocTotals;
};

/**
 * The table of contents as sent to the page. `requested`: the volume the address names (/toc/volume/N);
 * `marks`: a signed-in reader's progress; `search`: a search by title (`?q=`). Every volume is open in a short
 * serial; otherwise those with a chapter the search finds, else the requested one, else the one the reader
 * would continue in, else the first.
 */
export function tocPage(
  volumes: TocVolume[],
  {
    requested,
    marks,
    search = "",
  }: { requested?: number; marks?: Record<number, ProgressMark>; search?: string } = {},
): TocPage {
  const total = volumes.reduce((sum, volume) => sum + volume.chapters.length, 0);
  const readable = volumes.flatMap((volume) =>
    volume.chapters.filter((chapter) => chapter.status !== "locked").map((chapter) => chapter.number),
  );
  const next = marks && continueTarget(marks, readable);
  const readerVolume = volumes.find((volume) => volume.chapters.some((chapter) => chapter.number === next));
  const open = requested ?? readerVolume?.number ?? volumes[0]?.number;
  const matches = titleMatcher(search);
  const found = search
    ? new Set(volumes.filter((volume) => volume.chapters.some((c) => matches(c.title))).map((v) => v.number))
    : undefined;
  const isOpen = (number: number) => (found ? found.has(number) : number === open);
  const released = volumes.flatMap((volume) =>
    volume.chapters.filter((chapter) => chapter.status !== "locked" && chapter.status !== "early"),
  );
  const words = released.reduce((sum, chapter) => sum + chapter.words, 0);
  return {
    volumes: volumes.map(({ chapters, ...volume }) => ({
      ...volume,
      locked: chapters
        .filter((chapter) => chapter.status === "paid")
        .reduce((sum, chapter) => ({ count: sum.count + 1, coins: sum.coins + chapter.coinsRequired }), {
          count: 0,
          coins: 0,
        }),
      chapterCount: chapters.length,
      first: chapters[0]?.number ?? 0,
      last: chapters.at(-1)?.number ?? 0,
      ...(total <= TOC_ALL_OPEN_UP_TO || isOpen(volume.number) ? { chapters } : {}),
    })),
    readable,
    // Hours at the site's reading-time rule (lib/words.ts), to a tenth.
    totals: {
      chapters: released.length,
      words,
      hours: released.length ? Math.round(readingMinutes(words) / 6) / 10 : 0,
    },
  };
}
