import { describe, expect, it } from "vitest";
import { advance, emptyProgress, parseProgress, readSecond, toggleBookmark } from "./progress";
import { mergeProgress } from "./progress-merge";

const now = new Date("2026-11-22T10:00:00Z");

describe("reading progress", () => {
  it("follows the scroll and completes at 98 %", () => {
    let p = advance(emptyProgress(), 0.5, 12, now);
    expect(p).toMatchObject({
      scrollPosition: 0.5,
      paragraph: 12,
      completionPercentage: 50,
      completed: false,
    });
    p = advance(p, 0.97, 40, now);
    expect(p.completed).toBe(false);
    p = advance(p, 0.98, 41, now);
    expect(p).toMatchObject({ completed: true, completionPercentage: 100 });
    p = advance(p, 0.1, 2, now);
    expect(p).toMatchObject({ completed: true, completionPercentage: 100, paragraph: 2 });
  });

  it("keeps bookmarks sorted and toggles them", () => {
    let p = toggleBookmark(emptyProgress(), 9, now);
    p = toggleBookmark(p, 3, now);
    p = toggleBookmark(p, 12, now);
    expect(p.bookmarks).toEqual([3, 9, 12]);
    expect(toggleBookmark(p, 9, now).bookmarks).toEqual([3, 12]);
  });

  it("dates a chapter only opened and read (or bookmarked), never scrolled: not the empty record's 1970", () => {
    const read = readSecond(readSecond(emptyProgress(), now), new Date("2026-11-22T10:00:01Z"));
    expect(read).toMatchObject({ readingTime: 2, lastReadAt: "2026-11-22T10:00:01.000Z" });
    expect(toggleBookmark(emptyProgress(), 4, now).lastReadAt).toBe(now.toISOString());
  });

  it("merges two devices: furthest progress and the union of bookmarks win", () => {
    const phone = { ...advance(emptyProgress(), 0.6, 30, now), bookmarks: [2, 30], readingTime: 300 };
    const laptop = {
      ...advance(emptyProgress(), 0.2, 8, new Date("2026-11-22T11:00:00Z")),
      bookmarks: [5],
      readingTime: 120,
    };
    const merged = mergeProgress(phone, laptop);
    expect(merged).toMatchObject({
      completionPercentage: 60,
      paragraph: 30,
      bookmarks: [2, 5, 30],
      readingTime: 300,
    });
    expect(merged.lastReadAt).toBe("2026-11-22T11:00:00.000Z");
    expect(mergeProgress(merged, merged)).toEqual(merged);
  });
});

describe("parseProgress", () => {
  it("accepts a whole record and refuses anything off", () => {
    const good = { ...emptyProgress(), bookmarks: [5, 2] };
    expect(parseProgress(good)?.bookmarks).toEqual([2, 5]);
    for (const bad of [
      null,
      "x",
      { ...good, scrollPosition: 2 },
      { ...good, paragraph: -1 },
      { ...good, bookmarks: ["a"] },
      { ...good, lastReadAt: "soon" },
    ]) {
      expect(parseProgress(bad)).toBeUndefined();
    }
  });
});
