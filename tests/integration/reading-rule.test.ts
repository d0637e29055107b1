import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "#db/client.server";
import { readingDays, readingProgress, volumes } from "#db/schema";
import { achievementsPage } from "~/features/achievements/queries.server";
import { chapterAnalytics } from "~/features/admin/analytics.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { loadDashboard } from "~/features/dashboard/queries.server";
import { getProgress } from "~/features/reader/queries.server";
import { passSeconds } from "../support/clock";
import { drivers } from "../support/database";
import { createChapter, createReader, type TestReader } from "../support/factories";
import { earnedKeys, progressAt, sendProgress, useHeldClockDatabase } from "../support/progress";
import { middayZone } from "../support/zones";

function post(reader: TestReader, entries: { chapter: number; progress: unknown }[]) {
  return sendProgress({ entries }, { cookie: `${reader.cookie}; tz=${middayZone()}` });
}

/** Whether the reader's chapters count as completed (the stored rows, not the reader's place). */
async function countedCompleted(userId: number) {
  const rows = await db()
    .select({ completed: readingProgress.completed })
    .from(readingProgress)
    .where(eq(readingProgress.userId, userId));
  return rows.map((row) => row.completed);
}

/** What counts as reading (ADR 58), chapter access for progress, and the volumes' achievements. */
describe.each(drivers)("the reading rule on %s", (driver) => {
  useHeldClockDatabase(driver);

  it("does not complete a 2,000-word chapter scrolled to its end in 30 s, nor count it anywhere", async () => {
    const reader = await createReader({ prefix: "skimmer" });
    const words = (await getChapterCatalog()).byNumber.get(1)?.wordCount ?? 0;
    expect(words).toBeGreaterThan(2000);
    await post(reader, [{ chapter: 1, progress: progressAt(0) }]);
    passSeconds(30);
    expect(await post(reader, [{ chapter: 1, progress: progressAt(30, true) }])).toMatchObject({
      status: 200,
      earned: [],
    });
    // The reader's place is the end (the page, the table of contents and "continue" follow it), but the
    // chapter is not counted as completed.
    expect((await getProgress(reader.id, [1]))[1]).toMatchObject({
      completed: true,
      completionPercentage: 100,
      readingTime: 30,
    });
    expect(await countedCompleted(reader.id)).toEqual([false]);
    expect(await earnedKeys(reader.id)).toEqual([]);
    const dashboard = await loadDashboard(reader.id, "en");
    expect(dashboard.activity.chaptersCompleted).toBe(0);
    const [figures] = await chapterAnalytics((await getChapterCatalog()).byNumber.get(1)?.id);
    expect(figures).toMatchObject({ finished: 0 });
    // Read on for the time its words need at 10 words a second: then it is completed.
    passSeconds(Math.ceil(words / 10) - 30);
    const answer = await post(reader, [{ chapter: 1, progress: progressAt(Math.ceil(words / 10), true) }]);
    expect(answer.earned?.length).toBe(1);
    expect(await countedCompleted(reader.id)).toEqual([true]);
    expect(await earnedKeys(reader.id)).toEqual(["first-chapter"]);
  });

  it("lists no chapter opened for two seconds as read on the dashboard", async () => {
    const reader = await createReader({ prefix: "glance" });
    await post(reader, [{ chapter: 2, progress: progressAt(0) }]);
    passSeconds(2);
    await post(reader, [{ chapter: 2, progress: progressAt(2) }]);
    const dashboard = await loadDashboard(reader.id, "en");
    expect(dashboard.recent.filter((item) => item.kind === "read")).toEqual([]);
    passSeconds(28);
    await post(reader, [{ chapter: 2, progress: progressAt(30) }]);
    const after = await loadDashboard(reader.id, "en");
    expect(after.recent.filter((item) => item.kind === "read")).toHaveLength(1);
  });

  it("counts no more reading time than the server's clock saw pass, whatever the page claims", async () => {
    const reader = await createReader({ prefix: "claimer" });
    // The first write only starts the clock.
    await post(reader, [{ chapter: 3, progress: progressAt(5000) }]);
    passSeconds(2);
    await post(reader, [{ chapter: 3, progress: progressAt(5000) }]);
    expect((await getProgress(reader.id, [3]))[3]?.readingTime).toBe(2);
    const days = await db().select().from(readingDays).where(eq(readingDays.userId, reader.id));
    expect(days.map((day) => day.seconds)).toEqual([2]);
  });

  it("counts the same reading whether the page sends every second or every 15 seconds", async () => {
    const everySecond = await createReader({ prefix: "second" });
    const everyFifteen = await createReader({ prefix: "fifteen" });
    const chapter = await createChapter();
    await post(everySecond, [{ chapter, progress: progressAt(0) }]);
    await post(everyFifteen, [{ chapter, progress: progressAt(0) }]);
    for (let second = 1; second <= 60; second++) {
      // Writes do not land on whole seconds: a quarter of a second late every other time.
      passSeconds(second % 2 ? 1.25 : 0.75);
      await post(everySecond, [{ chapter, progress: progressAt(second) }]);
      if (second % 15 === 0) await post(everyFifteen, [{ chapter, progress: progressAt(second) }]);
    }
    expect((await getProgress(everySecond.id, [chapter]))[chapter]?.readingTime).toBe(60);
    expect((await getProgress(everyFifteen.id, [chapter]))[chapter]?.readingTime).toBe(60);
  });

  it("refuses progress in a chapter that does not exist (404) or that the reader cannot open (403)", async () => {
    const reader = await createReader({ prefix: "ahead" });
    const catalog = await getChapterCatalog();
    expect(catalog.byNumber.get(10)?.releaseAt.getTime()).toBeGreaterThan(Date.now());
    expect(await post(reader, [{ chapter: 9999, progress: progressAt(0) }])).toMatchObject({
      status: 404,
      refused: [9999],
    });
    await post(reader, [{ chapter: 10, progress: progressAt(0) }]);
    passSeconds(600);
    expect(await post(reader, [{ chapter: 10, progress: progressAt(600, true) }])).toMatchObject({
      status: 403,
      refused: [10],
    });
    // A paid chapter not unlocked is refused too; an open one in the same batch is kept.
    const paid = [...catalog.published].find(
      (chapter) => chapter.coinsRequired > 0 && chapter.releaseAt.getTime() <= Date.now(),
    );
    expect(paid).toBeDefined();
    expect(
      await post(reader, [
        { chapter: paid?.number ?? 0, progress: progressAt(0) },
        { chapter: 1, progress: progressAt(0) },
      ]),
    ).toMatchObject({ status: 403, saved: 1 });
    const kept = await db()
      .select({ chapterId: readingProgress.chapterId })
      .from(readingProgress)
      .where(eq(readingProgress.userId, reader.id));
    expect(kept.map((row) => row.chapterId)).toEqual([catalog.byNumber.get(1)?.id]);
    expect(await earnedKeys(reader.id)).toEqual([]);
  });

  it("offers a volume's achievement only for a volume that exists", async () => {
    const reader = await createReader({ prefix: "volumes" });
    const keys = async () => (await achievementsPage(reader.id, "en")).items.map((item) => item.key);
    const published = new Set((await getChapterCatalog()).published.map((chapter) => chapter.volume.number));
    expect(published).toEqual(new Set([1, 2]));
    expect(await keys()).toEqual(expect.arrayContaining(["volume-1", "volume-2"]));
    expect(await keys()).not.toContain("volume-3");
    const total = (await achievementsPage(reader.id, "en")).total;
    // Volume 3 begins: its achievement is offered.
    await db().insert(volumes).values({ number: 3, title: "A Third Volume" });
    await createChapter();
    expect(await keys()).toContain("volume-3");
    expect((await achievementsPage(reader.id, "en")).total).toBe(total + 1);
  });
});
