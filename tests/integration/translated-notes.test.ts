import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db, setDatabase } from "#db/client.server";
import {
  auditLog,
  chapterRevisions,
  chapters,
  chapterTranslations,
  type TranslationLanguage,
  users,
} from "#db/schema";
import {
  type ChapterInput,
  getChapterForEdit,
  getRevision,
  listRevisions,
  revisionDiff,
  saveChapter,
} from "~/features/content/chapter-editing.server";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import {
  chapterTranslationMarks,
  getChapterTranslationForEdit,
  saveChapterTranslation,
} from "~/features/content/translation-editing.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { stopRevisionPoll } from "~/features/site/revision.server";
import { chapterOriginal, digestOf } from "~/features/translations/originals.server";
import { action as translationAction } from "~/routes/admin/chapter-translation";
import { action as revisionsAction } from "~/routes/admin/revisions";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader } from "../support/factories";
import { tempDir } from "../support/temp";

const idOf = async (number: number) =>
  (await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number)))[0]?.id ?? 0;

async function inputOf(id: number, change: Partial<ChapterInput> = {}): Promise<ChapterInput> {
  const chapter = await getChapterForEdit(id);
  if (!chapter) throw new Error(`no chapter ${id}`);
  const { id: _id, number: _number, version: _version, updatedAt: _at, ...fields } = chapter;
  return { ...fields, ...change };
}

async function translationOf(chapterId: number, language: TranslationLanguage) {
  const [row] = await db()
    .select()
    .from(chapterTranslations)
    .where(and(eq(chapterTranslations.chapterId, chapterId), eq(chapterTranslations.language, language)));
  return row;
}

async function revisionNotes(chapterId: number, language: "en" | TranslationLanguage, version: number) {
  return (await getRevision(chapterId, version, language))?.notes;
}

type Action = (args: never) => unknown;

/** Posts a form to an admin action as React Router does, with a cookie: its status, data or where it sends. */
async function post(
  action: Action,
  url: string,
  params: Record<string, string>,
  cookie: string,
  fields: Record<string, string>,
) {
  const request = new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  try {
    const result = (await action({
      request,
      params,
      context: { ip: "127.0.0.1", requestId: "t" },
    } as never)) as {
      status?: number;
      init?: { status?: number };
      data?: { errors?: Record<string, string> };
      headers?: Headers;
    };
    return {
      status: result.status ?? result.init?.status ?? 200,
      data: result.data,
      location: result.headers?.get?.("Location") ?? undefined,
    };
  } catch (thrown) {
    const refused = thrown as { init?: { status?: number } };
    return { status: refused.init?.status ?? 500, data: undefined, location: undefined };
  }
}

async function authorCookie(prefix: string) {
  const author = await createReader({ prefix });
  await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
  return author;
}

/**
 * The author's notes in the revisions and in the translations (ADR 100): a version keeps its notes and brings
 * them back; a translation has notes of its own, edited, kept, shown, and carried by the content folder.
 */
describe.each(drivers)("revision and translated notes on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("keeps a chapter's notes in each version; the list and the diff show a change of notes; restoring brings them back", async () => {
    const author = await authorCookie("revnoter");
    const actor = { via: "admin", userId: author.id } as const;
    const id = await idOf(3);
    const start = (await getChapterForEdit(id))?.version ?? 0;
    const first = await saveChapter(
      id,
      await inputOf(id, { bodyMd: "First text.", noteBefore: "Note one.", noteAfter: null }),
      start,
      actor,
    );
    expect(first).toMatchObject({ ok: true, version: start + 1 });
    // The version replaced entered the history with its notes (none in the demo).
    expect(await revisionNotes(id, "en", start)).toEqual({ before: null, after: null });
    expect(await revisionNotes(id, "en", start + 1)).toEqual({ before: "Note one.", after: null });
    const second = await saveChapter(
      id,
      await inputOf(id, { noteBefore: "Note two.", noteAfter: "Thanks." }),
      start + 1,
      actor,
    );
    expect(second).toMatchObject({ ok: true, version: start + 2 });
    // A save that changes the text only: no change of notes.
    expect(
      await saveChapter(id, await inputOf(id, { bodyMd: "Third text." }), start + 2, actor),
    ).toMatchObject({
      ok: true,
    });
    const list = await listRevisions(id);
    const changed = Object.fromEntries(list.map((revision) => [revision.version, revision.notesChanged]));
    expect(changed[start + 3]).toBe(false);
    expect(changed[start + 2]).toBe(true);
    expect(changed[start + 1]).toBe(true);

    // The diff from version start+1 names both notes' changes, and the text's.
    const older = await getRevision(id, start + 1);
    const chapter = await getChapterForEdit(id);
    if (!older || !chapter) throw new Error("missing");
    const diff = revisionDiff(older, chapter);
    expect(diff.notes.map((note) => note.place)).toEqual(["before", "after"]);
    expect(diff.notes[0]?.parts).toEqual(
      expect.arrayContaining([
        { kind: "removed", text: "Note one." },
        { kind: "added", text: "Note two." },
      ]),
    );
    expect(diff.notes[1]?.parts).toEqual([{ kind: "added", text: "Thanks." }]);

    // Restoring version start+1 through the history page brings its text and its notes back.
    const restored = await post(
      revisionsAction,
      `/admin/chapters/${id}/revisions`,
      { id: String(id) },
      author.cookie,
      {
        intent: "restore",
        restore: String(start + 1),
        version: String(start + 3),
      },
    );
    expect(restored.location).toBe(`/admin/chapters/${id}?saved=${start + 4}`);
    expect(await getChapterForEdit(id)).toMatchObject({
      bodyMd: "First text.",
      noteBefore: "Note one.",
      noteAfter: null,
      version: start + 4,
    });
    expect(await revisionNotes(id, "en", start + 4)).toEqual({ before: "Note one.", after: null });

    // A version kept before revisions had notes (null: unknown) restores its text and leaves the notes.
    await db()
      .update(chapterRevisions)
      .set({ notes: null })
      .where(
        and(
          eq(chapterRevisions.chapterId, id),
          eq(chapterRevisions.language, "en"),
          eq(chapterRevisions.version, start + 2),
        ),
      );
    expect((await listRevisions(id)).find((revision) => revision.version === start + 2)?.notesChanged).toBe(
      false,
    );
    const unknown = await getRevision(id, start + 2);
    if (!unknown) throw new Error("missing");
    expect(revisionDiff(unknown, chapter).notes).toEqual([]);
    await post(revisionsAction, `/admin/chapters/${id}/revisions`, { id: String(id) }, author.cookie, {
      intent: "restore",
      restore: String(start + 2),
      version: String(start + 4),
    });
    expect(await getChapterForEdit(id)).toMatchObject({ noteBefore: "Note one.", version: start + 5 });
  });

  it("fills, on upgrade, the notes it knows: each chapter's current version's, and none for a translation's", async () => {
    const id = await idOf(5);
    await db().update(chapters).set({ noteBefore: "Known." }).where(eq(chapters.id, id));
    const version = (await getChapterForEdit(id))?.version ?? 0;
    const author = await createAuthor("tnmigrate");
    await db()
      .insert(chapterRevisions)
      .values([
        { chapterId: id, language: "en", version, title: "Now", bodyMd: "Now." },
        { chapterId: id, language: "en", version: version + 100, title: "Other", bodyMd: "Other." },
        {
          chapterId: id,
          language: "es",
          version: 1,
          title: "Ahora",
          bodyMd: "Ahora.",
          authorId: author.userId,
        },
      ])
      .onConflictDoNothing();
    await db().update(chapterRevisions).set({ notes: null }).where(eq(chapterRevisions.chapterId, id));
    const migration = fs.readFileSync("db/migrations/0044_revision_and_translated_notes.sql", "utf8");
    for (const statement of migration
      .split("--> statement-breakpoint")
      .filter((text) => /^\s*(--[^\n]*\n\s*)*UPDATE/i.test(text)))
      await db().execute(sql.raw(statement));
    expect(await revisionNotes(id, "en", version)).toEqual({ before: "Known.", after: null });
    expect(await revisionNotes(id, "en", version + 100)).toBeNull();
    expect(await revisionNotes(id, "es", 1)).toEqual({ before: null, after: null });
  });

  it("saves a translation's own notes from its form, keeps them in its versions and audit, and restores them", async () => {
    const author = await authorCookie("tnoter");
    const id = await idOf(1);
    const params = { id: String(id), lang: "es" };
    const url = `/admin/chapters/${id}/translations/es`;
    const before = await translationOf(id, "es");
    if (!before) throw new Error("the demo has chapter 1 in Spanish");
    const fields = { title: before.title, bodyMd: before.bodyMd, version: String(before.version) };
    const saved = await post(translationAction, url, params, author.cookie, {
      ...fields,
      noteBefore: "  ¡Gracias por *leer*!\r\n",
      noteAfter: " ",
    });
    expect(saved.location).toBe(`${url}?saved=${before.version + 1}`);
    expect(await translationOf(id, "es")).toMatchObject({
      noteBefore: "¡Gracias por *leer*!",
      noteAfter: null,
      version: before.version + 1,
    });
    // The version replaced is in the history with its notes (none), the new one with its own.
    expect(await revisionNotes(id, "es", before.version)).toEqual({ before: null, after: null });
    expect(await revisionNotes(id, "es", before.version + 1)).toEqual({
      before: "¡Gracias por *leer*!",
      after: null,
    });
    const [audit] = await db()
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, "translation.update"), eq(auditLog.subjectId, String(id))))
      .orderBy(asc(auditLog.id));
    expect(audit?.after).toMatchObject({ language: "es", notes: [20, 0] });

    // The editor shows the translation's notes and the original's.
    const edit = await getChapterTranslationForEdit(id, "es");
    expect(edit?.translation).toMatchObject({ noteBefore: "¡Gracias por *leer*!", noteAfter: null });

    // Past the limit: refused with the translation's message, the typed note given back.
    const long = await post(translationAction, url, params, author.cookie, {
      ...fields,
      version: String(before.version + 1),
      noteAfter: "🦇".repeat(10_001),
    });
    expect(long).toMatchObject({
      status: 400,
      data: { errors: { noteAfter: "admin.translation.errors.noteLong" } },
    });
    expect((await translationOf(id, "es"))?.version).toBe(before.version + 1);

    // A second save changes the notes; restoring the version before brings the first note back.
    await post(translationAction, url, params, author.cookie, {
      ...fields,
      version: String(before.version + 1),
      noteBefore: "",
      noteAfter: "Hasta la próxima.",
    });
    expect(await translationOf(id, "es")).toMatchObject({ noteBefore: null, noteAfter: "Hasta la próxima." });
    expect((await listRevisions(id, "es"))[0]).toMatchObject({
      version: before.version + 2,
      notesChanged: true,
    });
    const restored = await post(translationAction, url, params, author.cookie, {
      intent: "restore",
      restore: String(before.version + 1),
      version: String(before.version + 2),
    });
    expect(restored.location).toBe(`${url}?saved=${before.version + 3}`);
    expect(await translationOf(id, "es")).toMatchObject({
      noteBefore: "¡Gracias por *leer*!",
      noteAfter: null,
    });
    // A save that names no notes (the service's callers) keeps them.
    const actor = { via: "admin", userId: author.id } as const;
    expect(
      await saveChapterTranslation(
        id,
        "es",
        { title: "La puerta", bodyMd: "Texto." },
        before.version + 3,
        actor,
      ),
    ).toMatchObject({ ok: true });
    expect((await translationOf(id, "es"))?.noteBefore).toBe("¡Gracias por *leer*!");
  });

  it("shows a reader the translation's notes, and the original's marked English where it has none", async () => {
    const actor = await createAuthor("tnshow");
    const id = await idOf(2);
    const version = (await getChapterForEdit(id))?.version ?? 0;
    await saveChapter(
      id,
      await inputOf(id, { noteBefore: "Original before.", noteAfter: "Original after." }),
      version,
      actor,
    );
    const es = await translationOf(id, "es");
    if (!es) throw new Error("the demo has chapter 2 in Spanish");
    const saved = await saveChapterTranslation(
      id,
      "es",
      {
        title: es.title,
        bodyMd: es.bodyMd,
        noteBefore: "Antes: **hola** <script>alert(1)</script>",
        noteAfter: null,
      },
      es.version,
      actor,
    );
    expect(saved).toMatchObject({ ok: true });
    const page = await loadChapterForReader(2, undefined, undefined, undefined, "es");
    expect(page?.notes?.before).toContain("<strong>hola</strong>");
    expect(page?.notes?.before).not.toContain("<script");
    expect(page?.notes?.after).toContain("Original after.");
    // Only the note the translation lacks is marked English.
    expect(page?.notes?.lang).toEqual({ after: "en" });
    // Side by side, the same notes.
    expect((await loadChapterForReader(2, undefined, undefined, undefined, "es", true))?.notes).toEqual(
      page?.notes,
    );
    // A translation with both notes: nothing marked.
    await saveChapterTranslation(
      id,
      "es",
      { title: es.title, bodyMd: es.bodyMd, noteAfter: "Después." },
      es.version + 1,
      actor,
    );
    const both = await loadChapterForReader(2, undefined, undefined, undefined, "es");
    expect(both?.notes?.after).toContain("Después.");
    expect(both?.notes).not.toHaveProperty("lang");
    // Another language without notes, and the original's page, as before.
    expect((await loadChapterForReader(2, undefined, undefined, undefined, "ja"))?.notes?.lang).toEqual({
      before: "en",
      after: "en",
    });
    expect((await loadChapterForReader(2, undefined))?.notes?.before).toContain("Original before.");
  });

  it("marks a translation stale when the original's notes change; a chapter without notes keeps its digest", async () => {
    const actor = await createAuthor("tnstale");
    // Without notes, the digest is the one made before notes counted (title and captions, and the text).
    const plain = { title: "T", artwork: [{ caption: "c" }], bodyMd: "Body." };
    const [fields, body] = chapterOriginal({ ...plain, noteBefore: null, noteAfter: null });
    expect(digestOf({ fields, body })).toBe(
      digestOf({ fields: { title: "T", artwork: [{ caption: "c" }] }, body: "Body." }),
    );
    expect(digestOf({ fields, body })).not.toBe(
      digestOf({
        fields: chapterOriginal({ ...plain, noteBefore: "N", noteAfter: null })[0],
        body,
      }),
    );
    const marks = async () =>
      Object.fromEntries((await chapterTranslationMarks(3)).map(({ language, mark }) => [language, mark]));
    const id = await idOf(3);
    // Chapter 3's translations were made from it as it is: bring them up to date first.
    for (const language of ["es", "fr", "ja"] as const) {
      const row = await translationOf(id, language);
      if (!row) throw new Error(`the demo has chapter 3 in ${language}`);
      await saveChapterTranslation(
        id,
        language,
        { title: row.title, bodyMd: row.bodyMd },
        row.version,
        actor,
      );
    }
    expect(await marks()).toEqual({ es: "current", fr: "current", ja: "current" });
    const version = (await getChapterForEdit(id))?.version ?? 0;
    await saveChapter(id, await inputOf(id, { noteAfter: "A new thank-you." }), version, actor);
    expect(await marks()).toEqual({ es: "stale", fr: "stale", ja: "stale" });
  });

  it("carries a translation's notes through the content folder, unchanged by a second import", async () => {
    const id = await idOf(1);
    const note = 'Una nota con\n\n- una lista\n- de dos\n\ny un emoji 🦇, "comillas": y dos puntos.';
    await handle.db
      .update(chapterTranslations)
      .set({ noteBefore: note, noteAfter: "Corta." })
      .where(and(eq(chapterTranslations.chapterId, id), eq(chapterTranslations.language, "fr")));
    const folder = tempDir("cc-tnotes-");
    await exportContent(handle.db, folder);
    const file = fs.readFileSync(path.join(folder, "translations/fr/chapters/1.md"), "utf8");
    expect(file).toContain("noteAfter: Corta.");
    const fresh = await openTestDatabase(driver, { content: false });
    try {
      await importContent(fresh.db, await readContentDir(folder));
      const notesOf = (database: DatabaseHandle["db"]) =>
        database
          .select({
            number: chapters.number,
            language: chapterTranslations.language,
            before: chapterTranslations.noteBefore,
            after: chapterTranslations.noteAfter,
            digest: chapterTranslations.sourceDigest,
          })
          .from(chapterTranslations)
          .innerJoin(chapters, eq(chapters.id, chapterTranslations.chapterId))
          .orderBy(asc(chapters.number), asc(chapterTranslations.language));
      const exported = await notesOf(handle.db);
      expect(exported.find((row) => row.number === 1 && row.language === "fr")).toMatchObject({
        before: note,
        after: "Corta.",
      });
      expect(await notesOf(fresh.db)).toEqual(exported);
      const again = await importContent(fresh.db, await readContentDir(folder));
      expect(again.translations).toMatchObject({ inserted: 0, updated: 0 });

      // A note taken out of the file is gone on the next import; a note past the limit is refused.
      fs.writeFileSync(
        path.join(folder, "translations/fr/chapters/1.md"),
        file.replace(/^noteAfter: .*\n/m, ""),
      );
      const removed = await importContent(fresh.db, await readContentDir(folder));
      expect(removed.translations).toMatchObject({ updated: 1 });
      const [row] = await notesOf(fresh.db).then((rows) =>
        rows.filter((entry) => entry.number === 1 && entry.language === "fr"),
      );
      expect(row).toMatchObject({ before: note, after: null });
      fs.writeFileSync(
        path.join(folder, "translations/fr/chapters/1.md"),
        file.replace(/^noteAfter: .*$/m, `noteAfter: ${"a".repeat(10_001)}`),
      );
      await expect(readContentDir(folder)).rejects.toThrow(/noteAfter/);
    } finally {
      setDatabase(handle);
      await fresh.close();
    }
  });
});

describe.runIf(drivers.includes("postgres"))("translated notes under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of five saves of a translation's notes at once, one is saved, its notes the row's and its version's", async () => {
    const id = await idOf(2);
    const start = await translationOf(id, "fr");
    if (!start) throw new Error("the demo has chapter 2 in French");
    const actors = await Promise.all([0, 1, 2, 3, 4].map(() => createAuthor("tnrace")));
    const outcomes = await Promise.all(
      actors.map((actor, index) =>
        saveChapterTranslation(
          id,
          "fr",
          {
            title: `T${index}`,
            bodyMd: `Texte ${index}`,
            noteBefore: `Avant ${index}`,
            noteAfter: `Après ${index}`,
          },
          start.version,
          actor,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toEqual([{ ok: true, version: start.version + 1 }]);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(4);
    const row = await translationOf(id, "fr");
    const winner = row?.title.slice(1);
    expect(row).toMatchObject({
      bodyMd: `Texte ${winner}`,
      noteBefore: `Avant ${winner}`,
      noteAfter: `Après ${winner}`,
    });
    expect(await revisionNotes(id, "fr", start.version + 1)).toEqual({
      before: `Avant ${winner}`,
      after: `Après ${winner}`,
    });
    // The original's save and a translation's at once: both land, each version keeping its own notes.
    const chapter = await getChapterForEdit(id);
    if (!chapter || !row) throw new Error("missing");
    const { id: _id, number: _n, version, updatedAt: _at, ...fields } = chapter;
    const [original, translation] = await Promise.all([
      saveChapter(id, { ...fields, noteBefore: "Both at once." }, version, actors[0] as never),
      saveChapterTranslation(
        id,
        "fr",
        { title: row.title, bodyMd: row.bodyMd, noteBefore: "Les deux." },
        row.version,
        actors[1] as never,
      ),
    ]);
    expect(original).toMatchObject({ ok: true });
    expect(translation).toMatchObject({ ok: true });
    expect(await revisionNotes(id, "en", version + 1)).toMatchObject({ before: "Both at once." });
    expect(await revisionNotes(id, "fr", row.version + 1)).toEqual({
      before: "Les deux.",
      after: `Après ${winner}`,
    });
    // The translation was saved under the chapter's lock: its digest is of the original before or after, never half.
    const digest = (await translationOf(id, "fr"))?.sourceDigest;
    const now = await getChapterForEdit(id);
    if (!now) throw new Error("missing");
    const [nowFields, nowBody] = chapterOriginal(now);
    const [oldFields, oldBody] = chapterOriginal(chapter);
    expect([
      digestOf({ fields: nowFields, body: nowBody }),
      digestOf({ fields: oldFields, body: oldBody }),
    ]).toContain(digest);
  });
});
