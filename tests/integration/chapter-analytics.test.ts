import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { users } from "#db/schema";
import { type ChapterFigures, chapterAnalytics } from "~/features/admin/analytics.server";
import { loader as listLoader } from "~/routes/admin/analytics";
import { loader as chapterLoader } from "~/routes/admin/analytics-chapter";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type SerialReading, seedSerialReading, type TestReader } from "../support/factories";

/**
 * The figures the analytics must give, computed here in plain JS from the factory's rows: under the reading
 * rule, a row counts (as started) when completed or read for 30 s, a chapter scrolled to its end too fast
 * stopped in the last tenth.
 */
function expectedFigures(reading: SerialReading, chapters: { id: number; number: number; title: string }[]) {
  const first = chapters[0]?.id;
  const read = reading.progress.filter((row) => row.completed || row.readingTimeSeconds >= 30);
  const firstReaders = new Set(read.filter((row) => row.chapterId === first).map((row) => row.userId));
  return chapters.map((chapter): ChapterFigures => {
    const rows = read.filter((row) => row.chapterId === chapter.id);
    const finished = rows.filter((row) => row.completed).length;
    const dropOff = Array<number>(10).fill(0);
    for (const row of rows)
      if (!row.completed) {
        const tenth = Math.min(9, Math.floor(row.completionPercentage / 10));
        dropOff[tenth] = (dropOff[tenth] ?? 0) + 1;
      }
    const unlocks = reading.unlocks.filter((row) => row.chapterId === chapter.id);
    const seconds = rows.reduce((sum, row) => sum + row.readingTimeSeconds, 0);
    return {
      ...chapter,
      started: rows.length,
      finished,
      completionRate: rows.length ? finished / rows.length : 0,
      averageSeconds: rows.length ? Math.round(seconds / rows.length) : 0,
      reached: rows.filter((row) => firstReaders.has(row.userId)).length,
      dropOff,
      unlocks: unlocks.length,
      coins: unlocks.reduce((sum, row) => sum + row.coinsSpent, 0),
      visitorsStarted: 0,
      visitorsFinished: 0,
    };
  });
}

/**
 * Statements the database receives during `run` (drizzle's and the prepared ones), on either driver: the
 * pool's `query` on PostgreSQL, PGlite's `query` plus its prepared statements.
 */
async function countStatements(handle: DatabaseHandle, run: () => Promise<unknown>) {
  const client = (handle.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const queries = vi.spyOn(client, "query");
  const prepared = vi.spyOn(handle, "preparedRows");
  try {
    await run();
    return queries.mock.calls.length + (handle.kind === "pglite" ? prepared.mock.calls.length : 0);
  } finally {
    queries.mockRestore();
    prepared.mockRestore();
  }
}

const request = (author: TestReader, path: string) =>
  new Request(`http://localhost${path}`, { headers: { Cookie: author.cookie } });

/** The status a loader answers: its own, the one it threw (a 404), or 500 for anything else thrown. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? 500;
  }
}

/** Chapter analytics (ADR 42), on a database holding only the factory's serial. */
describe.each(drivers)("chapter analytics on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: TestReader;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
    author = await createReader({ prefix: "analyst" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
  });
  afterAll(() => handle.close());

  it("gives exactly the readers, completion rates, drop-off tenths, funnel, unlocks and coins of the rows", async () => {
    const reading = await seedSerialReading({ readers: 120, chapterCount: 14, seed: 20 });
    // Readers who never reached the serial's first chapter are in the figures but not the funnel.
    expect(reading.progress.length).toBeGreaterThan(300);
    expect(reading.unlocks.length).toBeGreaterThan(20);
    // Readers on each side of the finishing line and of a tenth's boundary.
    const places = new Set(reading.progress.map((row) => row.completionPercentage));
    for (const place of [9, 10, 97, 98]) expect(places.has(place), String(place)).toBe(true);
    // And, under the reading rule, places only opened (under 30 s) and ends reached too fast.
    expect(reading.progress.some((row) => row.readingTimeSeconds < 30)).toBe(true);
    expect(reading.progress.some((row) => row.completionPercentage >= 98 && !row.completed)).toBe(true);
    const figures = await chapterAnalytics();
    const chapters = figures.map(({ id, number, title }) => ({ id, number, title }));
    expect(chapters.map((chapter) => chapter.id)).toEqual(reading.chapters.map((chapter) => chapter.id));
    expect(figures).toEqual(expectedFigures(reading, chapters));
    // The funnel starts whole and the drop-off counts every reader who did not finish.
    expect(figures[0]?.reached).toBe(figures[0]?.started);
    for (const chapter of figures)
      expect(chapter.dropOff.reduce((sum, count) => sum + count, 0)).toBe(chapter.started - chapter.finished);

    // One chapter's figures are its row of the whole.
    const third = figures[2];
    expect(await chapterAnalytics(third?.id)).toEqual([third]);
    expect(await chapterAnalytics(2_000_000_000)).toEqual([]);
  });

  it("asks the database the same number of statements whatever the chapters and readers", async () => {
    const analytics = () => countStatements(handle, () => chapterAnalytics());
    const page = () =>
      countStatements(handle, () => listLoader({ request: request(author, "/admin/analytics") } as never));
    const chapter = (id: number) =>
      countStatements(handle, () =>
        chapterLoader({
          request: request(author, `/admin/analytics/${id}`),
          params: { id: String(id) },
        } as never),
      );
    const [firstId] = (await chapterAnalytics()).map((row) => row.id);
    const before = { analytics: await analytics(), page: await page(), chapter: await chapter(firstId ?? 1) };
    expect(before.analytics).toBe(1);
    await seedSerialReading({ readers: 200, chapterCount: 25, seed: 7 });
    expect({
      analytics: await analytics(),
      page: await page(),
      chapter: await chapter(firstId ?? 1),
    }).toEqual(before);
  });

  it("ignores a bad sort, direction or page (never an error) and 404s a bad chapter id", async () => {
    const sorted = (await listLoader({
      request: request(author, "/admin/analytics?sort=started&dir=desc"),
    } as never)) as { chapters: ChapterFigures[] };
    const starts = sorted.chapters.map((chapter) => chapter.started);
    expect(starts).toEqual(starts.toSorted((a, b) => b - a));

    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("sort", "dir", "page", "x"), fc.string({ maxLength: 300 })),
        async (query) => {
          const path = `/admin/analytics?${new URLSearchParams(query)}`;
          expect(await statusOf(() => listLoader({ request: request(author, path) } as never))).toBe(200);
        },
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 40 }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String)),
        async (id) => {
          const status = await statusOf(() =>
            chapterLoader({ request: request(author, "/admin/analytics/x"), params: { id } } as never),
          );
          expect([200, 404]).toContain(status);
        },
      ),
      { numRuns: 40 },
    );
  });
});
