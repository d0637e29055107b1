import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  auditLog,
  chapters,
  chapterUnlocks,
  payments,
  readingProgress,
  volumes,
  wikiPages,
} from "#db/schema";
import { movedChapterNumber } from "~/features/chapters/catalog.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { createChapter, getChapterForEdit } from "~/features/content/chapter-editing.server";
import { moveChapter } from "~/features/content/chapter-numbers.server";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance, createAuthor, createReader, grantCoins } from "../support/factories";

const idOf = async (number: number) =>
  (await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number)))[0]?.id ?? 0;
const numberOf = async (id: number) =>
  (await db().select({ number: chapters.number }).from(chapters).where(eq(chapters.id, id)))[0]?.number;
const allNumbers = async () =>
  (await db().select({ number: chapters.number }).from(chapters).orderBy(asc(chapters.number))).map(
    (row) => row.number,
  );

/** A published chapter at the end, paid, already out. */
async function newChapter(title: string, bodyMd = "Text.") {
  const actor = await createAuthor("numberer");
  const created = await createChapter(
    {
      title,
      volume: 1,
      bodyMd,
      status: "published",
      releaseAt: new Date(Date.now() - 60_000),
      coinsRequired: 1,
      tags: [],
      artwork: [],
    },
    actor,
  );
  if (!created.ok) throw new Error("not created");
  return created;
}

/** Moving chapters to other numbers (ADR 39): what names a chapter by id or by number follows it. */
describe.each(drivers)("chapter numbers on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("moves a chapter among the others: progress, bookmarks, unlocks, pending checkouts, wiki and links follow it", async () => {
    const author = await createAuthor("mover");
    const moving = await newChapter("The moving chapter");
    const other = await newChapter(
      "Its neighbour",
      `Go back to [the moving one](/chapter/${moving.number}).`,
    );
    const reader = await createReader({ prefix: "follower" });
    await grantCoins(reader.id, 3);
    expect(await unlockChapter(reader.id, moving.number)).toEqual({ ok: true, charged: true });
    await db()
      .insert(readingProgress)
      .values({ userId: reader.id, chapterId: moving.id, scrollPosition: 0.5, bookmarks: [3, 7] });
    const [pending] = await db()
      .insert(payments)
      .values({
        userId: reader.id,
        kind: "coins",
        provider: "test",
        amountCents: 99,
        currency: "USD",
        description: "5 coins",
        coins: 5,
        chapterNumber: moving.number,
        unlockChapter: true,
      })
      .returning({ id: payments.id });
    const [wiki] = await db()
      .insert(wikiPages)
      .values({
        section: "items",
        slug: `moving-${moving.id}`,
        title: "A relic",
        summary: "Revealed late.",
        bodyMd: `Found in [the chapter](/chapter/${moving.number}#p2).`,
        revealsChapter: moving.number,
      })
      .returning({ id: wikiPages.id });
    const [volume] = await db().select().from(volumes).where(eq(volumes.number, 1));
    await db()
      .update(volumes)
      .set({ summaryMd: `Starts at [this one](/chapter/${moving.number}).` })
      .where(eq(volumes.number, 1));
    const otherVersion = (await getChapterForEdit(other.id))?.version ?? 0;

    // Chapter 3 of the demo goes to the moving chapter's place; it becomes chapter 3.
    const third = await idOf(3);
    const moved = await moveChapter(moving.id, moving.number, 3, author);
    expect(moved).toEqual({ ok: true, number: 3, moved: moving.number - 2 });
    expect(await numberOf(moving.id)).toBe(3);
    expect(await numberOf(third)).toBe(4);
    expect(await numberOf(other.id)).toBe(other.number);

    const [progress] = await db().select().from(readingProgress).where(eq(readingProgress.userId, reader.id));
    expect(progress).toMatchObject({ chapterId: moving.id, scrollPosition: 0.5, bookmarks: [3, 7] });
    // Unlocked by id: the reader reads it at its new number without paying again, and still owes nothing for it.
    expect(await unlockChapter(reader.id, 3)).toEqual({ ok: true, charged: false });
    const [payment] = await db()
      .select()
      .from(payments)
      .where(eq(payments.id, pending?.id ?? 0));
    expect(payment?.chapterNumber).toBe(3);
    const [page] = await db()
      .select()
      .from(wikiPages)
      .where(eq(wikiPages.id, wiki?.id ?? 0));
    expect(page).toMatchObject({ revealsChapter: 3, bodyMd: "Found in [the chapter](/chapter/3#p2)." });
    const [neighbour] = await db().select().from(chapters).where(eq(chapters.id, other.id));
    expect(neighbour?.bodyMd).toBe("Go back to [the moving one](/chapter/3).");
    // Its text changed: an editor opened before is told, not overwritten.
    expect(neighbour?.version).toBe(otherVersion + 1);
    const [summary] = await db().select().from(volumes).where(eq(volumes.number, 1));
    expect(summary?.summaryMd).toBe("Starts at [this one](/chapter/3).");
    await db()
      .update(volumes)
      .set({ summaryMd: volume?.summaryMd ?? "" })
      .where(eq(volumes.number, 1));

    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, "chapter.move"));
    expect(entry).toMatchObject({
      actorId: author.userId,
      subjectId: String(moving.id),
      before: { number: moving.number },
    });
    expect(await allNumbers()).toEqual([...new Set(await allNumbers())]);
  });

  it("takes a free number; the old one then leads to it, until another chapter holds it", async () => {
    const author = await createAuthor("renumberer");
    const chapter = await newChapter("Far away");
    const far = 900_000 + chapter.id;
    expect(await moveChapter(chapter.id, chapter.number, far, author)).toEqual({
      ok: true,
      number: far,
      moved: 1,
    });
    expect(await movedChapterNumber(chapter.number)).toBe(far);
    expect(await movedChapterNumber(far)).toBeUndefined();
    // A new chapter takes the next number after the last (the far one): the old number stays free.
    const next = await newChapter("After it");
    expect(next.number).toBe(far + 1);
    // Moving a chapter onto the old number: it is held, so it no longer leads anywhere else.
    expect(await moveChapter(next.id, far + 1, chapter.number, author)).toMatchObject({ ok: true });
    expect(await movedChapterNumber(chapter.number)).toBeUndefined();
    expect(await movedChapterNumber(far + 1)).toBe(chapter.number);
  });

  it("refuses a move made from a stale page and one of a chapter that does not exist", async () => {
    const author = await createAuthor("stale");
    const chapter = await newChapter("Stale");
    const before = await allNumbers();
    expect(await moveChapter(chapter.id, chapter.number + 1, 1, author)).toEqual({
      ok: false,
      reason: "conflict",
    });
    expect(await moveChapter(2_000_000_000, 1, 2, author)).toEqual({ ok: false, reason: "notFound" });
    expect(await moveChapter(chapter.id, chapter.number, chapter.number, author)).toEqual({
      ok: true,
      number: chapter.number,
      moved: 0,
    });
    expect(await allNumbers()).toEqual(before);
  });
});

describe.runIf(drivers.includes("postgres"))("chapter numbers under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of five moves of one chapter from the same page at once, one is made and four are conflicts", async () => {
    const chapter = await newChapter("Raced");
    const actors = await Promise.all([0, 1, 2, 3, 4].map(() => createAuthor("racemover")));
    const outcomes = await Promise.all(
      actors.map((actor, index) => moveChapter(chapter.id, chapter.number, index + 1, actor)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(4);
  });

  it("keeps every chapter on a number of its own through moves and new chapters at once", async () => {
    const before = await db().select({ id: chapters.id, number: chapters.number }).from(chapters);
    const author = await createAuthor("shuffler");
    const work = before
      .slice(0, 6)
      .map((row, index) =>
        index % 2 === 0
          ? moveChapter(row.id, row.number, before.length - index, author)
          : newChapter(`Made during the moves ${index}`),
      );
    await Promise.all(work);
    const after = await allNumbers();
    expect(new Set(after).size).toBe(after.length);
    expect(after).toHaveLength(before.length + 3);
  });

  it("moves a chapter and unlocks one asked at once: one chapter bought, paid once, on a number of its own", async () => {
    for (let round = 0; round < 4; round++) {
      const author = await createAuthor("raceunlock");
      const chapter = await newChapter(`Wanted ${round}`);
      const reader = await createReader({ prefix: "raceunlocker" });
      await grantCoins(reader.id, 5);
      const balance = await coinBalance(reader.id);
      const [moved, unlocked] = await Promise.all([
        moveChapter(chapter.id, chapter.number, 1, author),
        unlockChapter(reader.id, chapter.number),
      ]);
      expect(moved).toMatchObject({ ok: true });
      const bought = await db()
        .select({ coins: chapters.coinsRequired })
        .from(chapterUnlocks)
        .innerJoin(chapters, eq(chapters.id, chapterUnlocks.chapterId))
        .where(eq(chapterUnlocks.userId, reader.id));
      expect(bought).toHaveLength(unlocked.ok ? 1 : 0);
      expect(await coinBalance(reader.id)).toBe(balance - (bought[0]?.coins ?? 0));
      const numbers = await allNumbers();
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  });
});
