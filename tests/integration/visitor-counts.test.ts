import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "#db/client.server";
import { chapterVisitorDays } from "#db/schema";
import { analyticsOverview, chapterAnalytics } from "~/features/admin/analytics.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { visitorCountRule } from "~/features/reader/visitor-views.server";
import { holdClock, passSeconds, releaseClock } from "../support/clock";
import { drivers } from "../support/database";
import { createChapter } from "../support/factories";
import { progressAt, sendProgress, useHeldClockDatabase } from "../support/progress";

let addresses = 0;
/** A network address of its own for each visitor (the rate limit's key). */
const newAddress = () => `198.51.100.${++addresses % 250}-${Date.now()}`;

/** POST /reader/progress as a visitor's page sends it: no cookie, one record, the view it was last given. */
function visit(address: string, chapter: number, progress: object, view?: string) {
  return sendProgress(typeof progress === "string" ? progress : { entries: [{ chapter, progress }], view }, {
    address,
  });
}

async function figures(number: number) {
  const id = (await getChapterCatalog()).byNumber.get(number)?.id;
  const [row] = await chapterAnalytics(id);
  return { started: row?.visitorsStarted, finished: row?.visitorsFinished };
}

/** Visitors' reading counted by chapter and day, anonymously, under the reading rule (ADR 58). */
describe.each(drivers)("visitors' reading on %s", (driver) => {
  useHeldClockDatabase(driver);

  it("counts a visitor who reads chapter 1 as started, then finished, once each, in the admin's figures", async () => {
    expect(await figures(1)).toEqual({ started: 0, finished: 0 });
    const address = newAddress();
    const opened = await visit(address, 1, progressAt(0));
    expect(opened.status).toBe(200);
    expect(opened.view).toMatch(/^1\./);
    passSeconds(2);
    const glance = await visit(address, 1, progressAt(2), opened.view);
    expect(await figures(1)).toEqual({ started: 0, finished: 0 });
    passSeconds(28);
    const read = await visit(address, 1, progressAt(30), glance.view);
    expect(await figures(1)).toEqual({ started: 1, finished: 0 });
    // Scrolled to the end at 30 s: not finished, too fast for its words.
    const skimmed = await visit(address, 1, progressAt(31, true), read.view);
    expect(await figures(1)).toEqual({ started: 1, finished: 0 });
    const words = (await getChapterCatalog()).byNumber.get(1)?.wordCount ?? 0;
    passSeconds(Math.ceil(words / 10));
    const finished = await visit(address, 1, progressAt(Math.ceil(words / 10) + 31, true), skimmed.view);
    expect(await figures(1)).toEqual({ started: 1, finished: 1 });
    // Further writes of the same view count nothing more.
    passSeconds(60);
    await visit(address, 1, progressAt(Math.ceil(words / 10) + 91, true), finished.view);
    expect(await figures(1)).toEqual({ started: 1, finished: 1 });
    const overview = await analyticsOverview({ sort: "number", descending: false, page: 1 });
    expect(overview.firstVisitors).toEqual({ started: 1, finished: 1 });
    // Nothing of the visitor is kept: the counters are all there is.
    const rows = await db().select().from(chapterVisitorDays);
    expect(rows).toEqual([
      expect.objectContaining({ day: new Date().toISOString().slice(0, 10), started: 1, completed: 1 }),
    ]);
  });

  it("starts a new view for an altered or foreign view: it counts only the time the server saw", async () => {
    const chapter = await createChapter();
    const address = newAddress();
    const opened = await visit(address, chapter, progressAt(0));
    const [number, , countedAt, , , signature] = (opened.view ?? "").split(".");
    // Claims 500 s already counted: the signature no longer matches, so the view starts again.
    const forged = [number, 500, countedAt, 0, 0, signature].join(".");
    passSeconds(1);
    const answer = await visit(address, chapter, progressAt(600), forged);
    expect(answer.status).toBe(200);
    expect(answer.view?.split(".").slice(1, 2)).toEqual(["0"]);
    // Another chapter's view is not this one's.
    const other = await visit(address, 2, progressAt(0));
    passSeconds(60);
    await visit(address, chapter, progressAt(660), other.view);
    expect(await figures(chapter)).toEqual({ started: 0, finished: 0 });
  });

  it("refuses a chapter that does not exist (404) or is not open to visitors (403), and a large body (413)", async () => {
    const address = newAddress();
    expect((await visit(address, 9999, progressAt(0))).status).toBe(404);
    expect((await visit(address, 10, progressAt(0))).status).toBe(403);
    const paid = (await getChapterCatalog()).published.find(
      (chapter) => chapter.coinsRequired > 0 && chapter.releaseAt.getTime() <= Date.now(),
    );
    expect((await visit(address, paid?.number ?? 0, progressAt(0))).status).toBe(403);
    expect((await visit(address, 1, progressAt(0), "x".repeat(3000))).status).toBe(413);
    const two = JSON.stringify({
      entries: [
        { chapter: 1, progress: progressAt(0) },
        { chapter: 2, progress: progressAt(0) },
      ],
    });
    expect((await visit(address, 1, two as never)).status).toBe(400);
  });

  it("stops counting one address past the hourly limit, however often a view is replayed", async () => {
    // The limit's block is dated by the database's clock: the held one starts again from it.
    releaseClock();
    holdClock();
    const chapter = await createChapter();
    const address = newAddress();
    const opened = await visit(address, chapter, progressAt(0));
    passSeconds(60);
    for (let replay = 0; replay < visitorCountRule.limit + 20; replay++)
      await visit(address, chapter, progressAt(60), opened.view);
    expect(await figures(chapter)).toEqual({ started: visitorCountRule.limit, finished: 0 });
  }, 120_000);

  it("answers any body and any view with 200, 400, 403, 404 or 413, never an error (fuzz)", async () => {
    const progress = fc.record(
      {
        scrollPosition: fc.oneof(fc.double(), fc.constant(1)),
        paragraph: fc.integer(),
        completionPercentage: fc.integer({ min: -5, max: 105 }),
        readingTime: fc.integer({ min: -10, max: 20_000_000 }),
        completed: fc.boolean(),
        bookmarks: fc.array(fc.integer({ min: -1, max: 200_000 }), { maxLength: 5 }),
        lastReadAt: fc.constantFrom("2026-11-25T00:00:00.000Z", "x"),
      },
      { requiredKeys: [] },
    );
    const view = fc.oneof(
      fc.string({ maxLength: 250 }),
      fc
        .tuple(fc.integer({ min: -1, max: 12 }), fc.nat(), fc.nat(), fc.string({ maxLength: 30 }))
        .map((parts) => `${parts.join(".")}.1.0`),
    );
    const body = fc.oneof(
      fc
        .record({
          entries: fc.array(fc.record({ chapter: fc.integer({ min: -2, max: 12 }), progress }), {
            maxLength: 2,
          }),
          view: fc.option(view, { nil: undefined }),
        })
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 3000 }),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    const address = newAddress();
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const answer = await visit(address, 1, sent as never);
        expect([200, 400, 403, 404, 413]).toContain(answer.status);
      }),
      { numRuns: 80 },
    );
  });
});

describe.skipIf(!drivers.includes("postgres"))("visitors' counts under concurrency on postgres", () => {
  useHeldClockDatabase("postgres");

  it("counts 40 visitors reading the same chapter at once exactly", async () => {
    const chapter = await createChapter();
    const views = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const address = newAddress();
        return { address, view: (await visit(address, chapter, progressAt(0))).view };
      }),
    );
    passSeconds(60);
    const answers = await Promise.all(
      views.map(({ address, view }) => visit(address, chapter, progressAt(60, true), view)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await figures(chapter)).toEqual({ started: 40, finished: 40 });
    const id = (await getChapterCatalog()).byNumber.get(chapter)?.id ?? 0;
    const rows = await db().select().from(chapterVisitorDays).where(eq(chapterVisitorDays.chapterId, id));
    expect(rows).toHaveLength(1);
  });
});
