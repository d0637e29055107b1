import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  auditLog,
  chapterRevisions,
  chapters,
  chapterTranslations,
  type TranslationLanguage,
  users,
} from "#db/schema";
import {
  getChapterForEdit,
  getDraft,
  listRevisions,
  saveChapter,
  saveDraft,
} from "~/features/content/chapter-editing.server";
import { chapterTextHtml } from "~/features/content/markdown.server";
import {
  chapterTranslationMarks,
  saveChapterTranslation,
} from "~/features/content/translation-editing.server";
import { chapterTranslationSchema, translationDraftKey } from "~/features/content/translation-form";
import { TRANSLATED_CHAPTER_MAX } from "~/features/content/translation-schemas";
import { pageRevisionOf } from "~/features/page-cache/viewer.server";
import { refreshContentRevision, startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { translationStatus } from "~/features/translations/status.server";
import { parseForm } from "~/lib/forms";
import { countCjk, countWords } from "~/lib/words";
import { siteRoutes } from "~/routes";
import { action } from "~/routes/admin/chapter-translation";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader } from "../support/factories";

const pageRevision = pageRevisionOf(siteRoutes.match);

const idOf = async (number: number) =>
  (await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number)))[0]?.id ?? 0;

async function translationOf(chapterId: number, language: TranslationLanguage) {
  const [row] = await db()
    .select()
    .from(chapterTranslations)
    .where(and(eq(chapterTranslations.chapterId, chapterId), eq(chapterTranslations.language, language)));
  return row;
}

/** Saves the original's text changed, as its editor does. */
async function editOriginal(id: number, bodyMd: string, actor: Awaited<ReturnType<typeof createAuthor>>) {
  const chapter = await getChapterForEdit(id);
  if (!chapter) throw new Error(`no chapter ${id}`);
  const { version, number: _number, id: _id, updatedAt: _at, ...input } = chapter;
  expect(await saveChapter(id, { ...input, bodyMd }, version, actor)).toMatchObject({ ok: true });
}

const marksOf = async (number: number) =>
  Object.fromEntries((await chapterTranslationMarks(number)).map(({ language, mark }) => [language, mark]));

/** Posts the translation form as React Router does, with a cookie: its status, data or where it sends. */
async function post(params: { id: string; lang: string }, cookie: string, fields: Record<string, string>) {
  const request = new Request(`http://localhost/admin/chapters/${params.id}/translations/${params.lang}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  try {
    const result = (await action({
      request,
      params,
      context: { ip: "127.0.0.1", requestId: "t" },
    } as unknown as Parameters<typeof action>[0])) as {
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

/** Editing a chapter's translations in the admin (ADR 93): the marks, the save, its history and its limits. */
describe.each(drivers)("chapter translation editing on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("marks each language missing, current or stale: stale once the original is edited", async () => {
    const actor = await createAuthor("marker");
    // The demo translates chapters 1 to 3 into every language, and no later one.
    expect(await marksOf(4)).toEqual({ es: "missing", fr: "missing", ja: "missing" });
    expect(await marksOf(2)).toEqual({ es: "current", fr: "current", ja: "current" });
    await editOriginal(await idOf(2), "The original, changed after it was translated.", actor);
    expect(await marksOf(2)).toEqual({ es: "stale", fr: "stale", ja: "stale" });
    // Judged from the one chapter as the whole list judges it, for every chapter.
    const listed = (await translationStatus(db())).filter((status) => status.kind === "chapter");
    for (const number of [1, 2, 3, 4, 5]) {
      const states = listed.filter((status) => status.key === String(number));
      const expected = Object.fromEntries(
        (["es", "fr", "ja"] as const).map((language) => [
          language,
          states.find((status) => status.language === language)?.state ?? "missing",
        ]),
      );
      expect(await marksOf(number)).toEqual(expected);
    }
  });

  it("saves a translation as the import writes one, current again, with its history, audit and no draft", async () => {
    const actor = await createAuthor("translator");
    const id = await idOf(2);
    await editOriginal(id, "The original, changed again.", actor);
    expect((await marksOf(2)).fr).toBe("stale");
    const before = await translationOf(id, "fr");
    if (!before) throw new Error("the demo has chapter 2 in French");
    await saveDraft(actor.userId, translationDraftKey(id, "fr"), {
      title: "x",
      bodyMd: "y",
      baseVersion: before.version,
    });
    const body = "La porte s'ouvrit.\n\nElle ne se retourna pas.";
    const saved = await saveChapterTranslation(
      id,
      "fr",
      { title: "La porte", bodyMd: body },
      before.version,
      actor,
    );
    expect(saved).toEqual({ ok: true, version: before.version + 1 });
    const after = await translationOf(id, "fr");
    expect(after).toMatchObject({
      title: "La porte",
      bodyMd: body,
      bodyHtml: chapterTextHtml(body),
      wordCount: 8,
      cjkCount: 0,
      version: before.version + 1,
    });
    expect((await marksOf(2)).fr).toBe("current");
    expect((await listRevisions(id, "fr")).map((revision) => [revision.version, revision.title])).toEqual([
      [before.version + 1, "La porte"],
      [before.version, before.title],
    ]);
    // The original's history is its own.
    expect((await listRevisions(id)).every((revision) => revision.title !== "La porte")).toBe(true);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "translation.update"), eq(auditLog.subjectId, String(id))));
    expect(audit).toMatchObject({ subjectType: "chapter", actorId: actor.userId });
    expect(audit?.after).toMatchObject({ language: "fr", words: 8, version: before.version + 1 });
    expect(await getDraft(actor.userId, translationDraftKey(id, "fr"))).toBeUndefined();
  });

  it("makes a missing translation from no version, counting CJK characters apart; a second one is a conflict", async () => {
    const actor = await createAuthor("maker");
    const id = await idOf(3);
    await db()
      .delete(chapterTranslations)
      .where(and(eq(chapterTranslations.chapterId, id), eq(chapterTranslations.language, "ja")));
    const body = "門は閉じていた。\n\nShe did not look back.";
    expect(await saveChapterTranslation(id, "ja", { title: "門", bodyMd: body }, null, actor)).toEqual({
      ok: true,
      version: 1,
    });
    expect(await translationOf(id, "ja")).toMatchObject({
      cjkCount: countCjk(body),
      wordCount: countWords(body),
    });
    expect(countCjk(body)).toBeGreaterThan(5);
    expect((await marksOf(3)).ja).toBe("current");
    const late = await saveChapterTranslation(id, "ja", { title: "別", bodyMd: "別" }, null, actor);
    expect(late).toMatchObject({ ok: false, reason: "conflict", current: { version: 1, title: "門" } });
    const older = await saveChapterTranslation(id, "fr", { title: "Vieux", bodyMd: "Vieux" }, 99, actor);
    expect(older).toMatchObject({ ok: false, reason: "conflict" });
    expect(await saveChapterTranslation(999_999, "fr", { title: "a", bodyMd: "b" }, null, actor)).toEqual({
      ok: false,
      reason: "notFound",
    });
  });

  it("answers the author only; refuses bad input with its message; retires the saved language's pages only", async () => {
    const author = await createReader({ prefix: "tauthor" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
    const reader = await createReader({ prefix: "treader" });
    const id = await idOf(1);
    const params = { id: String(id), lang: "fr" };
    const before = await translationOf(id, "fr");
    const version = String(before?.version);
    const good = { title: "La porte", bodyMd: "La première phrase, revue.", version };
    expect((await post(params, reader.cookie, good)).status).toBe(404);
    expect((await post(params, "", good)).status).toBe(404);
    expect((await post({ id: String(id), lang: "de" }, author.cookie, good)).status).toBe(404);
    expect((await post({ id: String(id), lang: "en" }, author.cookie, good)).status).toBe(404);
    const empty = await post(params, author.cookie, { ...good, title: " " });
    expect(empty).toMatchObject({
      status: 400,
      data: { errors: { title: "admin.translation.errors.title" } },
    });
    const long = await post(params, author.cookie, {
      ...good,
      bodyMd: "a".repeat(TRANSLATED_CHAPTER_MAX + 1),
    });
    expect(long).toMatchObject({
      status: 400,
      data: { errors: { bodyMd: "admin.translation.errors.bodyLong" } },
    });
    const longTitle = await post(params, author.cookie, { ...good, title: "a".repeat(201) });
    expect(longTitle.status).toBe(400);
    expect((await translationOf(id, "fr"))?.version).toBe(Number(version));

    await startRevisionPoll(3_600_000);
    await refreshContentRevision();
    const fr = pageRevision("/chapter/1", "fr");
    const es = pageRevision("/chapter/1", "es");
    const saved = await post(params, author.cookie, good);
    expect(saved).toMatchObject({
      status: 302,
      location: `/admin/chapters/${id}/translations/fr?saved=${Number(version) + 1}`,
    });
    expect(pageRevision("/chapter/1", "fr")).not.toBe(fr);
    expect(pageRevision("/chapter/1", "es")).toBe(es);
    // From the version before: a conflict, nothing changed.
    expect((await post(params, author.cookie, { ...good, title: "Autre" })).status).toBe(409);
    expect((await translationOf(id, "fr"))?.title).toBe("La porte");
    // The version before comes back as a new one; an unknown one, or one from an old page, is refused.
    const now = String(Number(version) + 1);
    const restore = { intent: "restore", restore: version, version: now };
    expect((await post(params, author.cookie, { ...restore, restore: "9999" })).status).toBe(400);
    expect((await post(params, author.cookie, { ...restore, version })).status).toBe(409);
    expect((await post(params, reader.cookie, restore)).status).toBe(404);
    expect(await post(params, author.cookie, restore)).toMatchObject({ status: 302 });
    expect(await translationOf(id, "fr")).toMatchObject({
      title: before?.title,
      bodyMd: before?.bodyMd,
      version: Number(version) + 2,
    });
  });
});

describe("the chapter translation form", () => {
  it("never throws on any fields, and names each refusal with a message of its own (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("title", "bodyMd", "version", "other"), fc.string({ maxLength: 300 })),
        (fields) => {
          const form = new FormData();
          for (const [name, value] of Object.entries(fields)) form.set(name, value);
          const result = parseForm(chapterTranslationSchema, form);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^admin\.translation\.errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("chapter translation editing under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of five saves from the same version at once, one is saved and four are conflicts", async () => {
    const id = await idOf(2);
    const version = (await translationOf(id, "fr"))?.version ?? 0;
    const actors = await Promise.all([0, 1, 2, 3, 4].map(() => createAuthor("tracer")));
    const outcomes = await Promise.all(
      actors.map((actor, index) =>
        saveChapterTranslation(id, "fr", { title: `T${index}`, bodyMd: `Texte ${index}` }, version, actor),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(4);
    const revisions = await db()
      .select({ version: chapterRevisions.version })
      .from(chapterRevisions)
      .where(and(eq(chapterRevisions.chapterId, id), eq(chapterRevisions.language, "fr")));
    expect(revisions.map((revision) => revision.version).sort()).toEqual([version, version + 1]);
  });

  it("of five first translations at once, one is made and four are conflicts", async () => {
    // Chapter 4 has none in the demo.
    const id = await idOf(4);
    const actors = await Promise.all([0, 1, 2, 3, 4].map(() => createAuthor("tmaker")));
    const outcomes = await Promise.all(
      actors.map((actor, index) =>
        saveChapterTranslation(id, "es", { title: `T${index}`, bodyMd: `Texto ${index}` }, null, actor),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toEqual([{ ok: true, version: 1 }]);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(4);
  });
});
