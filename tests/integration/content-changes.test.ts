import { eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { moveDatabaseEpoch } from "#db/epoch.server";
import { chapters, contentChanges, contentRevision, wikiPages } from "#db/schema";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { CHAPTER_RENDERER, chapterText } from "~/features/content/markdown.server";
import { pageRevisionOf } from "~/features/page-cache/viewer.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import {
  broadRevision,
  chapterTextRevision,
  readContentRevision,
  refreshContentRevision,
  startRevisionPoll,
  stopRevisionPoll,
} from "~/features/site/revision.server";
import { siteRoutes } from "~/routes";
import { drivers, openTestDatabase, twoPostgresInstances } from "../support/database";

const pageRevision = pageRevisionOf(siteRoutes.match);

/** The changes noted after `revision`: the chapter number, or null for a change to anything. */
async function changesSince(revision: number) {
  const rows = await db().select().from(contentChanges).where(gt(contentChanges.revision, revision));
  return rows.map((row) => row.chapterNumber);
}

describe.each(drivers)("content changes on %s (ADR 54)", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    // Read once now; the test reads again after each write, as an instance does after its own.
    await startRevisionPoll(3_600_000);
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("name the chapter when only its text changed, and nothing (everything) for any other change", async () => {
    let from = await readContentRevision();
    await db()
      .update(chapters)
      .set({
        bodyMd: "Only the text.",
        wordCount: 3,
        version: sql`${chapters.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(chapters.number, 2));
    expect(await changesSince(from)).toEqual([2]);

    from = await readContentRevision();
    await db().update(chapters).set({ title: "Another Title" }).where(eq(chapters.number, 2));
    await db().update(chapters).set({ coinsRequired: 3 }).where(eq(chapters.number, 3));
    await db().update(wikiPages).set({ title: "Renamed" }).where(eq(wikiPages.id, 1));
    expect(await changesSince(from)).toEqual([null, null, null]);

    // One statement over two chapters: a row each; an update that changes nothing notes nothing.
    from = await readContentRevision();
    await db()
      .update(chapters)
      .set({ tags: ["retagged"] })
      .where(sql`${chapters.number} in (1, 2)`);
    await db()
      .update(chapters)
      .set({ title: sql`${chapters.title}` })
      .where(eq(chapters.number, 1));
    expect((await changesSince(from)).sort()).toEqual([1, 2]);
    expect(await readContentRevision()).toBe(from + 2);
  });

  it("keep the other chapters' pages and the pages showing no chapter after one chapter's text edit", async () => {
    await refreshContentRevision();
    const kept = new Map(
      ["/chapter/1", "/chapter/2", "/chapter/2.data", "/chapter/2/comments", "/wiki", "/toc", "/"].map(
        (pathname) => [pathname, pageRevision(pathname)],
      ),
    );
    const facts = (await getChapterCatalog()).byNumber.get(2);
    expect(getChapterCatalog.peek()?.byNumber.get(2)).toBe(facts);
    await db()
      .update(chapters)
      .set({ bodyMd: "Edited once more.", wordCount: 3 })
      .where(eq(chapters.number, 2));
    await refreshContentRevision();
    const moved = [...kept]
      .filter(([pathname, revision]) => pageRevision(pathname) !== revision)
      .map(([p]) => p);
    expect(moved).toEqual(["/chapter/2", "/chapter/2.data", "/chapter/2/comments", "/toc", "/"]);
    expect(chapterTextRevision(1)).toBe(broadRevision());
    // Not at hand until it has been read again: the page cache's hit path then asks as before.
    expect(getChapterCatalog.peek()).toBeUndefined();
    // The catalogue re-reads the edited chapter alone: the others are the same objects.
    const catalog = await getChapterCatalog();
    expect(catalog.byNumber.get(2)?.wordCount).toBe(3);
    expect(catalog.byNumber.get(2)).not.toBe(facts);
    expect(catalog.published.find((chapter) => chapter.number === 2)?.wordCount).toBe(3);

    const unchanged = catalog.byNumber.get(1);
    await db().update(chapters).set({ title: "A New Name" }).where(eq(chapters.number, 3));
    await refreshContentRevision();
    expect(pageRevision("/wiki")).not.toBe(kept.get("/wiki"));
    expect(pageRevision("/chapter/1")).not.toBe(kept.get("/chapter/1"));
    expect(getChapterCatalog.peek()).toBeUndefined();
    const reloaded = await getChapterCatalog();
    expect(getChapterCatalog.peek()).toBe(reloaded);
    expect(reloaded.byNumber.get(3)?.title).toBe("A New Name");
    expect(reloaded.byNumber.get(1)).not.toBe(unchanged);
  });

  it("keep each chapter's text rendered with it, and never show a rendering its text has left behind", async () => {
    const stored = async (number: number) =>
      (
        await db()
          .select({ html: chapters.bodyHtml, renderer: chapters.bodyHtmlRenderer })
          .from(chapters)
          .where(eq(chapters.number, number))
      )[0];
    // Written by the import with the text.
    expect(await stored(1)).toEqual({
      html: expect.stringContaining('id="p-0"'),
      renderer: CHAPTER_RENDERER,
    });
    // A text changed by hand loses its rendering, and the reader renders the new text.
    await db()
      .update(chapters)
      .set({ bodyMd: "Words set by hand.", updatedAt: new Date(Date.now() - 1000) })
      .where(eq(chapters.number, 1));
    expect(await stored(1)).toEqual({ html: null, renderer: null });
    await refreshContentRevision();
    expect((await loadChapterForReader(1, undefined))?.html).toContain("Words set by hand.");
    // A rendering stored with its text is what the reader is given, as it is.
    const text = chapterText("Words rendered with them.");
    await db()
      .update(chapters)
      .set({ ...text, updatedAt: new Date() })
      .where(eq(chapters.number, 1));
    expect((await stored(1))?.html).toBe(text.bodyHtml);
    await refreshContentRevision();
    expect((await loadChapterForReader(1, undefined))?.html).toBe(text.bodyHtml);
  });

  it("treat a move with no change noted (pruned, a restore's, made by hand) as a change to everything", async () => {
    await refreshContentRevision();
    const before = pageRevision("/chapter/1");
    await db()
      .update(contentRevision)
      .set({ revision: sql`${contentRevision.revision} + 1` })
      .where(eq(contentRevision.id, 1));
    await refreshContentRevision();
    expect(pageRevision("/chapter/1")).not.toBe(before);
    expect(broadRevision()).toBe(await readContentRevision());
  });

  it("after a restore, give out revisions above every one given before, and read no restored change (ADR 61)", async () => {
    const given = () => [
      broadRevision() ?? 0,
      pageRevision("/chapter/1") ?? 0,
      pageRevision("/chapter/2") ?? 0,
      pageRevision("/toc") ?? 0,
    ];
    /** Puts the counters where a restore leaves them, with restored changes up to them naming chapter 1 alone. */
    const restoreTo = async (revision: number, comments: number) => {
      await db().update(contentRevision).set({ revision, comments }).where(eq(contentRevision.id, 1));
      await db().execute(sql`
        insert into content_changes (revision, chapter_number)
        select r, 1 from generate_series(${start.revision - 10}::int, ${revision}::int) r
        on conflict (revision) do update set chapter_number = 1`);
    };
    await refreshContentRevision();
    const [row] = await db().select().from(contentRevision);
    const start = { revision: row?.revision ?? 0, comments: row?.comments ?? 0 };
    const before = given();

    // Put back to earlier counters, the epoch moved (pg_restore of an older backup).
    await restoreTo(start.revision - 5, start.comments);
    await moveDatabaseEpoch(db());
    await refreshContentRevision();
    const afterOlder = given();
    for (const [index, value] of afterOlder.entries()) expect(value).toBeGreaterThan(before[index] ?? 0);

    // Put back with the epoch as it was (a restore made without moving it): the counters went back.
    await restoreTo(start.revision - 8, Math.max(0, start.comments - 1));
    await refreshContentRevision();
    const afterBack = given();
    for (const [index, value] of afterBack.entries()) expect(value).toBeGreaterThan(afterOlder[index] ?? 0);

    // Counters ahead of those known, every change between naming chapter 1 alone: only the epoch says this
    // is another copy of the data, whose chapter 2 may differ too.
    await restoreTo(start.revision - 4, start.comments);
    await moveDatabaseEpoch(db());
    await refreshContentRevision();
    expect(pageRevision("/chapter/2")).toBeGreaterThan(afterBack[2] ?? 0);
    expect(broadRevision()).toBeGreaterThan(afterBack[0] ?? 0);

    // Changes after the restore are followed as before.
    const settled = given();
    await db()
      .update(chapters)
      .set({ bodyMd: "Written after the restore.", updatedAt: new Date() })
      .where(eq(chapters.number, 1));
    await refreshContentRevision();
    expect(pageRevision("/chapter/1")).toBeGreaterThan(settled[1] ?? 0);
    expect(pageRevision("/chapter/2")).toBe(settled[2]);
  });

  it("keep the last 1,000 changes", async () => {
    const from = await readContentRevision();
    await db().execute(sql`
      do $$ begin
        for i in 1..1010 loop
          update chapters set word_count = word_count + 1 where number = 1;
        end loop;
      end $$`);
    const rows = await db().select({ revision: contentChanges.revision }).from(contentChanges);
    expect(rows.length).toBeLessThanOrEqual(1000);
    expect(Math.min(...rows.map((row) => row.revision))).toBeGreaterThan(from);
    expect(Math.max(...rows.map((row) => row.revision))).toBe(from + 1010);
  });
});

describe.runIf(drivers.includes("postgres"))("content changes from two instances at once (ADR 54)", () => {
  let instances: Awaited<ReturnType<typeof twoPostgresInstances>>;
  beforeAll(async () => {
    instances = await twoPostgresInstances();
  });
  afterAll(async () => {
    await instances.close();
  });

  it("get a revision each, every one noted, none lost", async () => {
    const { first, second } = instances;
    const from = await readContentRevision();
    // Forty text edits of three chapters, half through each instance's pool, all at once.
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 ? second : first).db
          .update(chapters)
          .set({ bodyMd: `Edit ${index}.`, updatedAt: new Date() })
          .where(eq(chapters.number, 1 + (index % 3))),
      ),
    );
    expect(await readContentRevision()).toBe(from + 40);
    const rows = await db().select().from(contentChanges).where(gt(contentChanges.revision, from));
    expect(rows.map((row) => row.revision).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => from + 1 + index),
    );
    expect(new Set(rows.map((row) => row.chapterNumber))).toEqual(new Set([1, 2, 3]));
  });
});
