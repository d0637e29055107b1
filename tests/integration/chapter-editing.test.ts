import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, chapterRevisions, chapters, users } from "#db/schema";
import { lookUpSessionToken } from "~/features/auth/session.server";
import { chapterSchema } from "~/features/chapters/chapter-form";
import { getTableOfContents } from "~/features/chapters/queries.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import {
  type ChapterInput,
  createChapter,
  deleteChapter,
  getChapterForEdit,
  getDraft,
  listRevisions,
  saveChapter,
  saveDraft,
  textDiff,
} from "~/features/content/chapter-editing.server";
import {
  chapterLock,
  findChapter,
  loadChapterForReader,
  type PreviewAudience,
} from "~/features/reader/access.server";
import { processImage } from "~/features/uploads/images.server";
import { saveUpload } from "~/features/uploads/store.server";
import { parseForm } from "~/lib/forms";
import { LocalMediaStore } from "~/lib/storage.server";
import { drivers, openTestDatabase } from "../support/database";
import { coinBalance, createAuthor, createReader, grantCoins, grantMembership } from "../support/factories";
import { solid } from "../support/images";
import { tempDir } from "../support/temp";

async function inputOf(id: number, change: Partial<ChapterInput> = {}): Promise<ChapterInput> {
  const chapter = await getChapterForEdit(id);
  if (!chapter) throw new Error(`no chapter ${id}`);
  return {
    title: chapter.title,
    volume: chapter.volume,
    bodyMd: chapter.bodyMd,
    status: chapter.status,
    releaseAt: chapter.releaseAt,
    coinsRequired: chapter.coinsRequired,
    tags: chapter.tags,
    artwork: chapter.artwork,
    ...change,
  };
}

const idOf = async (number: number) =>
  (await db().select({ id: chapters.id }).from(chapters).where(eq(chapters.number, number)))[0]?.id ?? 0;

/** Saving chapters from the admin: versions, conflicts, revisions, new chapters, drafts. */
describe.each(drivers)("chapter editing on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("saves from the current version, keeps both versions in the history and audits the change", async () => {
    const actor = await createAuthor("scribe");
    const id = await idOf(1);
    const before = await getChapterForEdit(id);
    const saved = await saveChapter(
      id,
      await inputOf(id, { bodyMd: "A new first line.\n\nAnd more." }),
      before?.version ?? 0,
      actor,
    );
    expect(saved).toMatchObject({ ok: true, version: (before?.version ?? 0) + 1 });
    const after = await getChapterForEdit(id);
    expect(after).toMatchObject({
      bodyMd: "A new first line.\n\nAnd more.",
      version: (before?.version ?? 0) + 1,
    });
    const [stored] = await db()
      .select({ words: chapters.wordCount })
      .from(chapters)
      .where(eq(chapters.id, id));
    expect(stored?.words).toBe(6);
    const history = await listRevisions(id);
    expect(history.map((revision) => revision.version)).toEqual([
      (before?.version ?? 0) + 1,
      before?.version,
    ]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(id)));
    expect(audit).toMatchObject({ action: "chapter.update", subjectType: "chapter", actorId: actor.userId });
    expect(audit?.after).toMatchObject({ words: 6, version: (before?.version ?? 0) + 1 });
  });

  it("refuses a save from an older version as a conflict, with the text saved meanwhile, and changes nothing", async () => {
    const first = await createAuthor("first");
    const second = await createAuthor("second");
    const id = await idOf(2);
    const opened = (await getChapterForEdit(id))?.version ?? 0;
    expect(
      await saveChapter(id, await inputOf(id, { bodyMd: "First author's text." }), opened, first),
    ).toMatchObject({
      ok: true,
    });
    const late = await saveChapter(
      id,
      await inputOf(id, { bodyMd: "Second author's text." }),
      opened,
      second,
    );
    expect(late).toMatchObject({
      ok: false,
      reason: "conflict",
      current: { version: opened + 1, bodyMd: "First author's text." },
    });
    expect((await getChapterForEdit(id))?.bodyMd).toBe("First author's text.");
    // Saved again knowingly, from the version now current.
    expect(
      await saveChapter(id, await inputOf(id, { bodyMd: "Second author's text." }), opened + 1, second),
    ).toMatchObject({
      ok: true,
      version: opened + 2,
    });
  });

  it("creates chapters after the last one, each with its first revision", async () => {
    const actor = await createAuthor("maker");
    const [last] = await db().select({ number: chapters.number }).from(chapters).orderBy(chapters.number);
    const count = (await db().select({ id: chapters.id }).from(chapters)).length;
    const input = {
      ...(await inputOf(await idOf(1))),
      title: "A new night",
      bodyMd: "Words.",
      status: "draft" as const,
    };
    const created = await createChapter(input, actor);
    expect(created).toMatchObject({ ok: true, version: 1 });
    expect(created.ok && created.number).toBeGreaterThan(last?.number ?? 0);
    expect((await db().select({ id: chapters.id }).from(chapters)).length).toBe(count + 1);
    expect(await createChapter({ ...input, volume: 9999 }, actor)).toEqual({
      ok: false,
      reason: "unknownVolume",
    });
  });

  it("schedules a chapter for tomorrow: locked with its date to a visitor, read now by a first_human member, coins at its release", async () => {
    const actor = await createAuthor("scheduler");
    const tomorrow = new Date(Date.now() + 86_400_000);
    const input = {
      ...(await inputOf(await idOf(1))),
      title: "Tomorrow's night",
      bodyMd: "Soon.",
      coinsRequired: 1,
    };
    const created = await createChapter({ ...input, status: "published", releaseAt: tomorrow }, actor);
    if (!created.ok) throw new Error("not created");
    const toc = await getTableOfContents();
    const row = toc.flatMap((volume) => volume.chapters).find((chapter) => chapter.number === created.number);
    expect(row).toMatchObject({ status: "locked", releaseAt: tomorrow.toISOString() });

    const facts = await findChapter(created.number, undefined);
    if (!facts) throw new Error("not in the catalogue");
    expect(await chapterLock(facts, undefined)).toMatchObject({ kind: "release" });
    const member = await createReader({ prefix: "firsthuman" });
    await grantMembership(member.id, 180);
    const memberUser = await lookUpSessionToken(member.cookie.split("=")[1] ?? "");
    expect(await chapterLock(facts, memberUser)).toBeUndefined();
    // The clock passes the release: a reader is asked for the coin, and the member still reads it.
    const later = new Date(tomorrow.getTime() + 60_000);
    const reader = await createReader({ prefix: "coins" });
    const readerUser = await lookUpSessionToken(reader.cookie.split("=")[1] ?? "");
    expect(await chapterLock(facts, readerUser, later)).toMatchObject({ kind: "coins", coinsRequired: 1 });
    expect(await chapterLock(facts, undefined, later)).toMatchObject({ kind: "coins" });
  });

  it("gives a chapter artwork from an upload: the reader gets its picture, with its size and formats", async () => {
    const actor = await createAuthor("artist");
    const processed = await processImage(await solid(1200, 600).png().toBuffer(), { filename: "tower.png" });
    if (!processed.ok) throw new Error(processed.code);
    const { upload } = await saveUpload(db(), new LocalMediaStore(tempDir("cc-media-")), processed);
    const src = `/media/uploads/${upload.hash}/1200.png`;
    const id = await idOf(2);
    const before = await getChapterForEdit(id);
    if (!before) throw new Error("no chapter 2");
    const artwork = [{ url: src, caption: "The tower", position: "before" as const }];
    expect(await saveChapter(id, await inputOf(id, { artwork }), before.version, actor)).toMatchObject({
      ok: true,
    });
    const view = await loadChapterForReader(2, undefined);
    const srcSet = (format: string) =>
      [480, 960, 1200]
        .map((width) => `/media/uploads/${upload.hash}/${width}.${format} ${width}w`)
        .join(", ");
    expect(view?.artwork).toEqual([
      {
        ...artwork[0],
        picture: {
          src,
          width: 1200,
          height: 600,
          sources: [
            { type: "image/avif", srcSet: srcSet("avif") },
            { type: "image/webp", srcSet: srcSet("webp") },
          ],
          fallbackSrcSet: srcSet("png"),
        },
      },
    ]);
  });

  it("previews a draft as a visitor, a reader, a reader who unlocked it and a First Human member would see it, to its author only", async () => {
    const authorReader = await createReader({ prefix: "previewer" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, authorReader.id));
    const actor = { via: "admin", userId: authorReader.id } as const;
    const authorSession = await lookUpSessionToken(authorReader.cookie.split("=")[1] ?? "");
    const tomorrow = new Date(Date.now() + 86_400_000);
    const input = {
      ...(await inputOf(await idOf(1))),
      title: "Not out yet",
      bodyMd: "Quiet.",
      coinsRequired: 1,
    };
    const created = await createChapter({ ...input, status: "draft", releaseAt: tomorrow }, actor);
    if (!created.ok) throw new Error("not created");
    const reader = await createReader({ prefix: "notauthor" });
    const view = (as: PreviewAudience, now?: Date) =>
      loadChapterForReader(created.number, authorSession, now, as);
    // Each preview names its audience and the chapter's editor, for the banner's way back.
    expect(await view("visitor")).toMatchObject({
      preview: { as: "visitor", editor: `/admin/chapters/${created.id}` },
      lock: { kind: "release" },
    });
    expect(await view("reader")).toMatchObject({ lock: { kind: "release" } });
    // Nobody unlocks a chapter before its release.
    expect(await view("unlocked")).toMatchObject({ lock: { kind: "release" } });
    const member = await view("member");
    expect(member?.lock).toBeUndefined();
    expect(member?.html).toContain("Quiet.");
    const later = new Date(tomorrow.getTime() + 60_000);
    expect(await view("visitor", later)).toMatchObject({ lock: { kind: "coins", signedIn: false } });
    expect(await view("reader", later)).toMatchObject({
      lock: { kind: "coins", signedIn: true, balance: 0 },
    });
    // Once released and paid, the reader who unlocked it reads the text, as the author could not see before.
    const unlocked = await view("unlocked", later);
    expect(unlocked).toMatchObject({ preview: { as: "unlocked" } });
    expect(unlocked?.lock).toBeUndefined();
    expect(unlocked?.html).toContain("Quiet.");
    // Anyone else asking for a preview gets the page as it is for them: a draft does not exist.
    const readerUser = await lookUpSessionToken(reader.cookie.split("=")[1] ?? "");
    expect(await loadChapterForReader(created.number, readerUser, undefined, "member")).toBeUndefined();
  });

  it("deletes a chapter nobody unlocked with its history; one a reader unlocked stays, and says why", async () => {
    const actor = await createAuthor("deleter");
    const input = { ...(await inputOf(await idOf(1))), title: "Short-lived", coinsRequired: 1 };
    const released = new Date(Date.now() - 60_000);
    const gone = await createChapter({ ...input, status: "published", releaseAt: released }, actor);
    const kept = await createChapter({ ...input, status: "published", releaseAt: released }, actor);
    if (!gone.ok || !kept.ok) throw new Error("not created");
    expect(await deleteChapter(gone.id, actor)).toEqual({ ok: true, number: gone.number });
    expect(await db().select().from(chapters).where(eq(chapters.id, gone.id))).toEqual([]);
    expect(await db().select().from(chapterRevisions).where(eq(chapterRevisions.chapterId, gone.id))).toEqual(
      [],
    );
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "chapter.delete"), eq(auditLog.subjectId, String(gone.id))));
    expect(audit).toMatchObject({
      actorId: actor.userId,
      before: { number: gone.number, title: "Short-lived" },
    });
    expect(await deleteChapter(gone.id, actor)).toEqual({ ok: false, reason: "notFound" });

    const reader = await createReader({ prefix: "buyer" });
    await grantCoins(reader.id, 5);
    expect(await unlockChapter(reader.id, kept.number)).toEqual({ ok: true, charged: true });
    expect(await deleteChapter(kept.id, actor)).toEqual({ ok: false, reason: "unlocked", readers: 1 });
    expect(await db().select().from(chapters).where(eq(chapters.id, kept.id))).toHaveLength(1);
  });

  it("keeps one draft per author and chapter", async () => {
    const a = await createAuthor("drafter");
    const b = await createAuthor("drafter");
    await saveDraft(a.userId, "chapter:1", { title: "T", bodyMd: "mine", baseVersion: 1 });
    await saveDraft(a.userId, "chapter:1", { title: "T", bodyMd: "mine, later", baseVersion: 1 });
    await saveDraft(b.userId, "chapter:1", { title: "T", bodyMd: "theirs", baseVersion: 1 });
    expect((await getDraft(a.userId, "chapter:1"))?.bodyMd).toBe("mine, later");
    expect((await getDraft(b.userId, "chapter:1"))?.bodyMd).toBe("theirs");
  });
});

describe("the chapter form", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.set(key, value);
    return parseForm(chapterSchema, data);
  };
  const valid = {
    title: "Night",
    volume: "1",
    bodyMd: "Text",
    status: "published",
    releaseLocal: "2026-11-27T09:30",
    coinsRequired: "1",
    tags: "a, b, a",
    version: "3",
  };

  it("accepts a chapter and refuses each bad field with its message", () => {
    expect(form(valid)).toMatchObject({ ok: true, data: { tags: ["a", "b"], coinsRequired: 1, version: 3 } });
    expect(form({ ...valid, bodyMd: "One.\r\n\r\nTwo.\rThree." })).toMatchObject({
      ok: true,
      data: { bodyMd: "One.\n\nTwo.\nThree." },
    });
    for (const [field, value, message] of [
      ["title", "", "admin.chapter.errors.title"],
      ["title", "x".repeat(201), "admin.chapter.errors.title"],
      ["coinsRequired", "-1", "admin.chapter.errors.coins"],
      ["coinsRequired", "1.5", "admin.chapter.errors.coins"],
      ["releaseLocal", "tomorrow", "admin.chapter.errors.release"],
      ["releaseLocal", "2026-13-45T99:99", "admin.chapter.errors.release"],
      ["bodyMd", "x".repeat(200 * 1024 + 1), "admin.chapter.errors.bodyLong"],
      ["bodyMd", "語".repeat(70_000), "admin.chapter.errors.bodyLong"],
      ["tags", "x".repeat(31), "admin.chapter.errors.tags"],
      ["status", "live", "admin.chapter.errors.status"],
      ["artwork0Url", "javascript:alert(1)", "admin.chapter.errors.artworkUrl"],
      ["artwork1Url", "/media/../../etc/passwd x", "admin.chapter.errors.artworkUrl"],
      ["artwork2Url", 'https://example.com/"onerror="x', "admin.chapter.errors.artworkUrl"],
      ["artwork0Caption", "x".repeat(301), "admin.chapter.errors.caption"],
      ["artwork0Position", "middle", "admin.chapter.errors.position"],
    ] as const) {
      expect(form({ ...valid, [field]: value }), `${field}=${value.slice(0, 20)}`).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
  });

  it("takes the filled artwork slots in order, with their captions and sides", () => {
    const upload = `/media/uploads/${"a".repeat(32)}/1200.png`;
    expect(
      form({
        ...valid,
        artwork0Url: upload,
        artwork0Caption: " The bell tower ",
        artwork0Position: "after",
        artwork1Url: "",
        artwork1Caption: "ignored without an image",
        artwork2Url: "/media/art/ch1.jpg",
      }),
    ).toMatchObject({
      ok: true,
      data: {
        artwork: [
          { url: upload, caption: "The bell tower", position: "after" },
          { url: "/media/art/ch1.jpg", caption: "", position: "before" },
        ],
      },
    });
    expect(form(valid)).toMatchObject({ ok: true, data: { artwork: [] } });
  });

  it("never throws on any fields (fuzz)", () => {
    const artworkFields = ["artwork0Url", "artwork0Caption", "artwork0Position", "artwork2Url"];
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...Object.keys(valid), ...artworkFields),
          fc.string({ maxLength: 300 }),
        ),
        (fields) => {
          const result = form(fields);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^admin\.chapter\.errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("shows what changed between two texts line by line", () => {
    expect(textDiff("one\ntwo\n", "one\nthree\n")).toEqual([
      { kind: "same", text: "one\n" },
      { kind: "removed", text: "two\n" },
      { kind: "added", text: "three\n" },
    ]);
  });
});

describe.runIf(drivers.includes("postgres"))("chapter editing under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of five saves from the same version at once, one is saved and four are conflicts", async () => {
    const id = await idOf(3);
    const version = (await getChapterForEdit(id))?.version ?? 0;
    const actors = await Promise.all([0, 1, 2, 3, 4].map(() => createAuthor("racer")));
    const outcomes = await Promise.all(
      actors.map(async (actor, index) =>
        saveChapter(id, await inputOf(id, { bodyMd: `Text ${index}` }), version, actor),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(4);
    const revisions = await db().select().from(chapterRevisions).where(eq(chapterRevisions.chapterId, id));
    expect(revisions.map((revision) => revision.version).sort()).toEqual([version, version + 1]);
  });

  it("deletes or unlocks a chapter asked at once, never both: coins are spent only on a chapter that stays", async () => {
    for (let round = 0; round < 5; round++) {
      const actor = await createAuthor("racedeleter");
      const input = { ...(await inputOf(await idOf(1))), coinsRequired: 2, status: "published" as const };
      const created = await createChapter({ ...input, releaseAt: new Date(Date.now() - 60_000) }, actor);
      if (!created.ok) throw new Error("not created");
      const reader = await createReader({ prefix: "racebuyer" });
      await grantCoins(reader.id, 5);
      const before = await coinBalance(reader.id);
      const [deleted, unlocked] = await Promise.all([
        deleteChapter(created.id, actor),
        unlockChapter(reader.id, created.number),
      ]);
      const after = await coinBalance(reader.id);
      if (deleted.ok) {
        expect(unlocked).toEqual({ ok: false, reason: "not-for-sale" });
        expect(after).toBe(before);
      } else {
        expect(deleted).toEqual({ ok: false, reason: "unlocked", readers: 1 });
        expect(unlocked).toEqual({ ok: true, charged: true });
        expect(after).toBe(before - 2);
      }
    }
  });

  it("gives five chapters created at once five numbers", async () => {
    const actor = await createAuthor("maker");
    const input = { ...(await inputOf(await idOf(1))), status: "draft" as const };
    const created = await Promise.all(
      [0, 1, 2, 3, 4].map((n) => createChapter({ ...input, title: `New ${n}` }, actor)),
    );
    const numbers = created.map((outcome) => (outcome.ok ? outcome.number : 0));
    expect(new Set(numbers).size).toBe(5);
  });
});
