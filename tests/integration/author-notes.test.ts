import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db, setDatabase } from "#db/client.server";
import { auditLog, chapters } from "#db/schema";
import { chapterSchema } from "~/features/chapters/chapter-form";
import { type ChapterInput, getChapterForEdit, saveChapter } from "~/features/content/chapter-editing.server";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { parseForm } from "~/lib/forms";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor } from "../support/factories";
import { tempDir } from "../support/temp";

async function inputOf(id: number, change: Partial<ChapterInput> = {}): Promise<ChapterInput> {
  const chapter = await getChapterForEdit(id);
  if (!chapter) throw new Error(`no chapter ${id}`);
  const { id: _id, number: _number, version: _version, updatedAt: _at, ...fields } = chapter;
  return { ...fields, ...change };
}

const idOf = async (number: number) =>
  (await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number)))[0]?.id ?? 0;

/** The author's notes around a chapter (ADR 95): saved by the editor, shown to readers, carried by the content folder. */
describe.each(drivers)("author's notes on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("saves the notes from the form, audits their sizes, and keeps them through a save that names none", async () => {
    const actor = await createAuthor("noter");
    const id = await idOf(1);
    const fields = new FormData();
    for (const [name, value] of Object.entries({
      title: "The Tithe Ledger",
      volume: "1",
      bodyMd: "Text.",
      status: "published",
      releaseLocal: "2026-01-06T18:00",
      coinsRequired: "0",
      noteBefore: "Thanks for *reading*!\r\n",
      noteAfter: "",
    }))
      fields.set(name, value);
    const parsed = parseForm(chapterSchema, fields);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const { noteBefore, noteAfter } = parsed.data;
    const version = (await getChapterForEdit(id))?.version ?? 0;
    const saved = await saveChapter(id, await inputOf(id, { noteBefore, noteAfter }), version, actor);
    expect(saved).toMatchObject({ ok: true });
    expect(await getChapterForEdit(id)).toMatchObject({
      noteBefore: "Thanks for *reading*!",
      noteAfter: null,
    });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(id)));
    expect(audit?.after).toMatchObject({ notes: [21, 0] });

    // A save that names no notes (a revision brought back) leaves them as they are.
    const { noteBefore: _b, noteAfter: _a, ...withoutNotes } = await inputOf(id);
    expect(await saveChapter(id, withoutNotes, version + 1, actor)).toMatchObject({ ok: true });
    expect(await getChapterForEdit(id)).toMatchObject({ noteBefore: "Thanks for *reading*!" });
  });

  it("shows the notes rendered and sanitised to a reader who may read the chapter, never on the locked view", async () => {
    const actor = await createAuthor("noter2");
    const free = await idOf(2);
    const locked = await idOf(4);
    for (const id of [free, locked]) {
      const version = (await getChapterForEdit(id))?.version ?? 0;
      const input = await inputOf(id, {
        noteBefore: "Before: **bold** <script>alert(1)</script>",
        noteAfter: "After, with [a link](https://example.com).",
      });
      expect(await saveChapter(id, input, version, actor)).toMatchObject({ ok: true });
    }
    const open = await loadChapterForReader(2, undefined);
    expect(open?.notes?.before).toContain("<strong>bold</strong>");
    expect(open?.notes?.before).not.toContain("<script");
    expect(open?.notes?.after).toContain('href="https://example.com"');
    expect(open?.notes?.lang).toBeUndefined();
    // On a page in another language whose translation has no notes, each is the original's, marked as English.
    expect((await loadChapterForReader(2, undefined, undefined, undefined, "fr"))?.notes?.lang).toEqual({
      before: "en",
      after: "en",
    });
    // Chapter 4 costs a coin: a visitor sees its lock, and nothing of its notes.
    const closed = await loadChapterForReader(4, undefined);
    expect(closed?.lock).toBeDefined();
    expect(closed).not.toHaveProperty("notes");
    expect(JSON.stringify(closed)).not.toContain("Before:");
    // A chapter without notes carries no key for them.
    expect(await loadChapterForReader(3, undefined)).not.toHaveProperty("notes");
  });

  it("two saves at once from the same version: one wins with its notes, the other is a conflict", async () => {
    const first = await createAuthor("racer1");
    const second = await createAuthor("racer2");
    const id = await idOf(3);
    const version = (await getChapterForEdit(id))?.version ?? 0;
    const results = await Promise.all([
      saveChapter(id, await inputOf(id, { noteAfter: "First's note." }), version, first),
      saveChapter(id, await inputOf(id, { noteAfter: "Second's note." }), version, second),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "conflict")).toHaveLength(1);
    const winner = results[0]?.ok ? "First's note." : "Second's note.";
    expect((await getChapterForEdit(id))?.noteAfter).toBe(winner);
  });

  it("goes out with the content folder and comes back the same into a fresh database", async () => {
    const fresh = await openTestDatabase(driver, { content: false });
    try {
      const note = 'A note with\n\n- a list\n- of two\n\nand an emoji 🦇, "quotes": and a colon.';
      await handle.db
        .update(chapters)
        .set({ noteBefore: note, noteAfter: "Short." })
        .where(eq(chapters.number, 5));
      await handle.db
        .update(chapters)
        .set({ noteBefore: null, noteAfter: null })
        .where(eq(chapters.number, 6));
      const folder = tempDir("cc-notes-");
      await exportContent(handle.db, folder);
      await importContent(fresh.db, await readContentDir(folder));
      const notesOf = async (database: DatabaseHandle["db"]) =>
        database
          .select({ number: chapters.number, before: chapters.noteBefore, after: chapters.noteAfter })
          .from(chapters)
          .orderBy(chapters.number);
      const exported = await notesOf(handle.db);
      expect(exported.find((row) => row.number === 5)).toEqual({ number: 5, before: note, after: "Short." });
      expect(await notesOf(fresh.db)).toEqual(exported);
      // The same folder again changes nothing.
      const again = await importContent(fresh.db, await readContentDir(folder));
      expect(again.chapters).toMatchObject({ inserted: 0, updated: 0 });
    } finally {
      setDatabase(handle);
      await fresh.close();
    }
  });
});
