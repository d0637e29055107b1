import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import {
  chapters,
  chapterTranslations,
  readingProgress,
  translationLanguages,
  translations,
} from "#db/schema";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { pageRevisionOf } from "~/features/page-cache/viewer.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { settleProgressWrites } from "~/features/reader/progress-writes.server";
import { getProgress, saveProgress } from "~/features/reader/queries.server";
import { refreshContentRevision, startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { originalTexts, refOf } from "~/features/translations/originals.server";
import { translatedChapters, translationsOf } from "~/features/translations/reading.server";
import { translationStatus } from "~/features/translations/status.server";
import { siteRoutes } from "~/routes";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

const pageRevision = pageRevisionOf(siteRoutes.match);

/** A copy of the demo's content folder, without its media (not read here), to edit. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-translations-"));
  fs.cpSync("content", dir, { recursive: true, filter: (source) => !source.includes(`${path.sep}media`) });
  return dir;
}

const write = (dir: string, file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};

/** Every translation's row, without the times, in one order. */
async function allTranslations(database = db()) {
  const chapterRows = await database
    .select({
      number: chapters.number,
      language: chapterTranslations.language,
      title: chapterTranslations.title,
      bodyMd: chapterTranslations.bodyMd,
      captions: chapterTranslations.captions,
      paragraphMap: chapterTranslations.paragraphMap,
      sourceDigest: chapterTranslations.sourceDigest,
    })
    .from(chapterTranslations)
    .innerJoin(chapters, eq(chapters.id, chapterTranslations.chapterId))
    .orderBy(asc(chapters.number), asc(chapterTranslations.language));
  const others = await database
    .select({
      kind: translations.kind,
      key: translations.key,
      language: translations.language,
      fields: translations.fields,
      bodyMd: translations.bodyMd,
      sourceDigest: translations.sourceDigest,
    })
    .from(translations)
    .orderBy(asc(translations.kind), asc(translations.key), asc(translations.language));
  return { chapterRows, others };
}

const SPANISH_ONE = `---
title: La puerta
---

La primera frase en español.

Un segundo párrafo.
`;

/** Renames chapter `number`'s translation in `language`, and reads the revision as an instance does after its write. */
async function retitle(language: "es" | "fr" | "ja", number: number, title: string) {
  await db()
    .update(chapterTranslations)
    .set({ title })
    .where(
      and(
        eq(chapterTranslations.language, language),
        eq(chapterTranslations.chapterId, sql`(select id from chapters where number = ${number})`),
      ),
    );
  await refreshContentRevision();
}

describe.each(drivers)("translations as content on %s (ADR 86)", (driver) => {
  let handle: DatabaseHandle;
  const dir = scratchCopy();
  const exported = fs.mkdtempSync(path.join(os.tmpdir(), "cc-translations-out-"));
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
    write(dir, "translations/es/chapters/1.md", SPANISH_ONE);
    write(dir, "translations/fr/chapters/1.md", "---\ntitle: La porte\n---\n\nLa première phrase.\n");
    write(
      dir,
      "translations/ja/chapters/1.md",
      "---\ntitle: 門\n---\n\n門は閉じていた。彼女は振り返らなかった。\n",
    );
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(exported, { recursive: true, force: true });
  });

  it("imports the translations with the originals, and a second import changes nothing", async () => {
    const bundle = await readContentDir(dir);
    const first = await importContent(handle.db, bundle);
    expect(first.translations?.inserted).toBe(
      bundle.translations.length + countGoals(bundle) - fundraiserFiles(bundle),
    );
    const second = await importContent(handle.db, await readContentDir(dir));
    expect(second.translations).toMatchObject({ inserted: 0, updated: 0 });
    const status = await translationStatus(handle.db);
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((entry) => entry.state === "current")).toBe(true);
  });

  it("holds the demo's every language complete: chapters 1 to 3 and every other original, nothing more", async () => {
    const originals = [...(await originalTexts(handle.db)).values()]
      .filter((original) => original.kind !== "chapter" || Number(original.key) <= 3)
      .map((original) => refOf(original.kind, original.key))
      .sort();
    expect(originals.filter((ref) => ref.startsWith("chapter\n"))).toHaveLength(3);
    const status = await translationStatus(handle.db);
    for (const language of translationLanguages) {
      const made = status.filter((entry) => entry.language === language).map((e) => refOf(e.kind, e.key));
      expect(made.sort(), language).toEqual(originals);
    }
  });

  it("marks a translation stale when its original's text changes, not when its release date does", async () => {
    const file = path.join(dir, "chapters/1.md");
    const original = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, original.replace(/^releaseAt: .*$/m, "releaseAt: 2020-01-02T00:00:00Z"));
    await importContent(handle.db, await readContentDir(dir));
    expect(stateOf(await translationStatus(handle.db), "chapter", "1")).toEqual([
      "current",
      "current",
      "current",
    ]);

    fs.writeFileSync(file, `${original.trimEnd()}\n\nA sentence added to the original.\n`);
    await importContent(handle.db, await readContentDir(dir));
    const status = await translationStatus(handle.db);
    expect(stateOf(status, "chapter", "1")).toEqual(["stale", "stale", "stale"]);
    // Nothing else moved.
    expect(status.filter((entry) => entry.state === "stale")).toHaveLength(3);

    // The translator updates the Spanish: made from the original as it is now, current again.
    write(dir, "translations/es/chapters/1.md", SPANISH_ONE.replace("Un segundo", "Un nuevo segundo"));
    await importContent(handle.db, await readContentDir(dir));
    expect(stateOf(await translationStatus(handle.db), "chapter", "1")).toEqual([
      "current",
      "stale",
      "stale",
    ]);
  });

  it("round-trips: an export imported into a fresh database keeps every translation and whether it is stale", async () => {
    await exportContent(handle.db, exported);
    const before = await allTranslations(handle.db);
    const statusBefore = await translationStatus(handle.db);
    const fresh = await openTestDatabase(driver, { content: false });
    try {
      await importContent(fresh.db, await readContentDir(exported));
      expect(await allTranslations(fresh.db)).toEqual(before);
      expect(await translationStatus(fresh.db)).toEqual(statusBefore);
      expect(statusBefore.some((entry) => entry.state === "stale")).toBe(true);
    } finally {
      await fresh.close();
    }
    // Back to the first database for the tests that follow.
    handle = await reopen(handle, driver, dir);
  });

  it("shows the reader's language where a translation exists, else the original with the versions there are", async () => {
    const es = await loadChapterForReader(1, undefined, new Date(), undefined, "es");
    expect(es?.title).toBe("La puerta");
    expect(es?.html).toContain("La primera frase en español.");
    expect(es?.untranslated).toBeUndefined();
    const en = await loadChapterForReader(1, undefined, new Date(), undefined, "en");
    expect(en?.html).not.toContain("español");
    // The demo translates chapters 1 to 3 only: chapter 4 falls back to the original.
    const four = await loadChapterForReader(4, undefined, new Date(), undefined, "es");
    expect(four?.title).toBe(en === undefined ? undefined : await titleOf(4));
    expect(four?.untranslated?.versions[0]).toBe("en");
    // Japanese counts its characters: 18 of them, read at 500 a minute.
    const ja = await loadChapterForReader(1, undefined, new Date(), undefined, "ja");
    expect(ja?.wordCount).toBe(18);
    expect(ja?.minutes).toBe(1);

    // Side by side (ADR 97): the translation's blocks beside the original's; nothing changes where there is no
    // translation, nor in English.
    const pairs = await loadChapterForReader(1, undefined, new Date(), undefined, "es", true);
    expect(pairs?.sideBySide).toBe(true);
    expect(pairs?.html).toContain('<div class="pair-original" lang="en">');
    expect(pairs?.html).toContain('<div class="pair-translation" lang="es">');
    expect(pairs?.html).toContain("La primera frase en español.");
    expect(pairs?.html).toContain(en?.html?.match(/<p id="p-0">([^<]*)/)?.[1]);
    expect((await loadChapterForReader(4, undefined, new Date(), undefined, "es", true))?.html).toBe(
      four?.html,
    );
    const english = await loadChapterForReader(1, undefined, new Date(), undefined, "en", true);
    expect(english?.html).toBe(en?.html);
    expect(english?.sideBySide).toBeUndefined();
  });

  it("keeps progress per chapter, not per language: read in Spanish, then in English", async () => {
    const reader = await createReader({ prefix: `tr${driver}` });
    const record = (paragraph: number) => ({
      scrollPosition: paragraph / 10,
      paragraph,
      completionPercentage: paragraph * 10,
      readingTime: 60,
      completed: false,
      bookmarks: [],
      lastReadAt: new Date().toISOString(),
    });
    await saveProgress(reader.id, 2, record(3), new Date(), { timeZone: "UTC", language: "es" });
    await settleProgressWrites();
    await saveProgress(reader.id, 2, record(5), new Date(), { timeZone: "UTC", language: "en" });
    await settleProgressWrites();
    // One record of chapter 2, carried on from the Spanish page to the English one.
    const progress = await getProgress(reader.id);
    expect(Object.keys(progress)).toEqual(["2"]);
    expect(progress[2]?.paragraph).toBe(5);
    const rows = await db().select().from(readingProgress).where(eq(readingProgress.userId, reader.id));
    expect(rows).toHaveLength(1);
  });

  it("reads a language's translations once until its texts change, and only that language again", async () => {
    await startRevisionPoll(3_600_000);
    await refreshContentRevision();
    const es = await translatedChapters("es");
    const fr = await translatedChapters("fr");
    const wiki = await translationsOf("wiki", "es");
    // Kept: the same lists, no statement.
    expect(await translatedChapters("es")).toBe(es);
    expect(await translationsOf("wiki", "es")).toBe(wiki);
    await retitle("es", 2, "Otra puerta");
    expect((await translatedChapters("es")).get(2)?.title).toBe("Otra puerta");
    expect(await translatedChapters("fr")).toBe(fr);
    // Asked for some keys, only those.
    const [key] = [...wiki.keys()];
    expect([...(await translationsOf("wiki", "es", [key as string, "no-such-page"])).keys()]).toEqual([key]);
  });

  it("retires only the edited language's pages: an es edit keeps the fr page", async () => {
    await startRevisionPoll(3_600_000);
    await refreshContentRevision();
    const fr = pageRevision("/chapter/1", "fr");
    const es = pageRevision("/chapter/1", "es");
    const en = pageRevision("/toc", "en");
    await retitle("es", 1, "La puerta, otra vez");
    expect(pageRevision("/chapter/1", "fr")).toBe(fr);
    expect(pageRevision("/toc", "en")).toBe(en);
    expect(pageRevision("/chapter/1", "es")).not.toBe(es);
    expect(pageRevision("/toc", "es")).not.toBe(es);
    // A translation added changes every language's list of the versions there are: everything moves.
    const frBefore = pageRevision("/chapter/2", "fr");
    await db()
      .insert(translations)
      .values({
        kind: "legal",
        key: "terms",
        language: "fr",
        fields: { title: "Conditions" },
        sourceDigest: "0".repeat(32),
      })
      .onConflictDoNothing();
    await db()
      .delete(translations)
      .where(
        and(eq(translations.kind, "legal"), eq(translations.key, "terms"), eq(translations.language, "fr")),
      );
    await refreshContentRevision();
    expect(pageRevision("/chapter/2", "fr")).not.toBe(frBefore);
  });
});

describe("the demo's translated chapters", () => {
  /** A Markdown body's blocks: what the reader numbers, and what a language switch keeps the place by. */
  const blocks = (body: string) => body.trim().split(/\n\s*\n/).length;

  it("keep the original's paragraphs one for one, and its captions, in every language", async () => {
    const bundle = await readContentDir("content");
    for (const language of translationLanguages) {
      const chapterDocs = bundle.translations.filter(
        (doc) => doc.kind === "chapter" && doc.language === language,
      );
      expect(chapterDocs.map((doc) => doc.key).sort(), language).toEqual(["1", "2", "3"]);
      for (const doc of chapterDocs) {
        if (doc.kind !== "chapter") continue;
        const original = bundle.chapters.find((chapter) => String(chapter.data.number) === doc.key);
        expect(blocks(doc.body), doc.file).toBe(blocks(original?.body ?? ""));
        expect(doc.data.artwork.length, doc.file).toBe(original?.data.artwork?.length ?? 0);
        expect(
          doc.data.artwork.every((art) => art.caption.length > 0),
          doc.file,
        ).toBe(true);
      }
    }
  });
});

type Bundle = Awaited<ReturnType<typeof readContentDir>>;
const fundraiserFiles = (bundle: Bundle) =>
  bundle.translations.filter((doc) => doc.kind === "fundraiser").length;
const countGoals = (bundle: Bundle) =>
  bundle.translations.reduce((sum, doc) => sum + (doc.kind === "fundraiser" ? doc.data.goals.length : 0), 0);

function stateOf(status: Awaited<ReturnType<typeof translationStatus>>, kind: string, key: string) {
  return status.filter((entry) => entry.kind === kind && entry.key === key).map((entry) => entry.state);
}

async function titleOf(number: number) {
  const [row] = await db()
    .select({ title: chapters.title })
    .from(chapters)
    .where(eq(chapters.number, number));
  return row?.title;
}

/** The process-wide database is the last opened: open the first one's data again (its content re-imported). */
async function reopen(handle: DatabaseHandle, driver: Parameters<typeof openTestDatabase>[0], dir: string) {
  await handle.close();
  const again = await openTestDatabase(driver, { content: false });
  await importContent(again.db, await readContentDir(dir));
  return again;
}
