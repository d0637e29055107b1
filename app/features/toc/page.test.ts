import { describe, expect, it } from "vitest";
import type { TocChapter, TocVolume } from "~/features/chapters/queries.server";
import { TOC_ALL_OPEN_UP_TO, tocPage } from "./page";

function chapter(number: number, status: TocChapter["status"] = "free"): TocChapter {
  return {
    number,
    title: `Chapter ${number}`,
    status,
    coinsRequired: 0,
    releaseAt: "2026-01-01",
    minutes: 5,
    words: 1150,
  };
}

/** Volumes of `size` chapters each, numbered on from 1; the last chapter of all is locked. */
function serial(volumeCount: number, size: number): TocVolume[] {
  return Array.from({ length: volumeCount }, (_, v) => ({
    number: v + 1,
    title: `Volume ${v + 1}`,
    summaryMd: "",
    chapters: Array.from({ length: size }, (_, c) => {
      const number = v * size + c + 1;
      return chapter(number, number === volumeCount * size ? "locked" : "free");
    }),
  }));
}

const openVolumes = (page: ReturnType<typeof tocPage>) =>
  page.volumes.filter((volume) => volume.chapters).map((volume) => volume.number);

describe("the table of contents page", () => {
  it("opens every volume of a short serial", () => {
    const page = tocPage(serial(3, TOC_ALL_OPEN_UP_TO / 3));
    expect(openVolumes(page)).toEqual([1, 2, 3]);
  });

  it("opens one volume of a long serial: the requested one, else the reader's, else the first", () => {
    const volumes = serial(11, 100);
    expect(openVolumes(tocPage(volumes))).toEqual([1]);
    expect(openVolumes(tocPage(volumes, { requested: 7 }))).toEqual([7]);
    // Chapter 512 finished: the reader continues with 513, in volume 6.
    const marks = { 512: { completed: true, percent: 100, lastReadAt: "2026-11-01T00:00:00Z" } };
    expect(openVolumes(tocPage(volumes, { marks }))).toEqual([6]);
    expect(openVolumes(tocPage(volumes, { marks, requested: 2 }))).toEqual([2]);
  });

  it("opens, in a long serial searched by title, the volumes with a match and only those", () => {
    const volumes = serial(11, 100);
    // "Chapter 55" is in the titles of 55 (volume 1) and 550 to 559 (volume 6).
    expect(openVolumes(tocPage(volumes, { search: "chapter 55", requested: 3 }))).toEqual([1, 6]);
    expect(openVolumes(tocPage(volumes, { search: "Séance" }))).toEqual([]);
    expect(openVolumes(tocPage(volumes, { search: "", requested: 3 }))).toEqual([3]);
  });

  it("describes closed volumes by their range and lists every readable chapter", () => {
    const page = tocPage(serial(11, 100));
    expect(page.volumes[4]).toMatchObject({ number: 5, chapterCount: 100, first: 401, last: 500 });
    expect(page.volumes[4]?.chapters).toBeUndefined();
    expect(page.readable).toHaveLength(1099);
    expect(page.readable.at(-1)).toBe(1099);
  });

  it("keeps an empty volume without a range", () => {
    const page = tocPage([{ number: 1, title: "Empty", summaryMd: "", chapters: [] }]);
    expect(page.volumes[0]).toMatchObject({ chapterCount: 0, first: 0, last: 0, chapters: [] });
  });
});

describe("the serial's totals and each volume's locked coin chapters", () => {
  it("counts released chapters only, with their words and hours at the reading-time rule", () => {
    const volumes = serial(2, 3);
    const paid = (number: number, coins: number): TocChapter => ({
      ...chapter(number, "paid"),
      coinsRequired: coins,
    });
    volumes[1]?.chapters.splice(0, 2, paid(4, 2), paid(5, 3));
    const page = tocPage(volumes);
    // Six chapters, the last one not released yet: five of 1,150 words, 5,750 words, 25 minutes.
    expect(page.totals).toEqual({ chapters: 5, words: 5750, hours: 0.4 });
    expect(page.volumes.map((volume) => volume.locked)).toEqual([
      { count: 0, coins: 0 },
      { count: 2, coins: 5 },
    ]);
  });
});
