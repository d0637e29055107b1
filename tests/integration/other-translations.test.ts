import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, translations, users, wikiPages } from "#db/schema";
import {
  getTranslationForEdit,
  listTranslatables,
  saveOtherTranslation,
} from "~/features/content/other-translations.server";
import { stopRevisionPoll } from "~/features/site/revision.server";
import { wikiListIn } from "~/features/wiki/translated.server";
import { action, loader } from "~/routes/admin/translation";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader } from "../support/factories";

const ILSE = "characters/ilse-marrow";
const editor = (kind: string, language: string, key: string) =>
  `/admin/translations/${kind}/${language}?key=${encodeURIComponent(key)}`;

/** The editor's action as the browser posts it, by an author (or anyone `cookie` is). */
const send = (
  kind: string,
  language: string,
  key: string,
  who: { cookie: string },
  fields: Record<string, string>,
) =>
  statusOf(() =>
    action({
      request: post(editor(kind, language, key), who as never, fields),
      params: { kind, lang: language },
      context: {},
    } as never),
  );

const stored = async (kind: "wiki" | "tier" | "coinPack", key: string, language: "es" | "fr" | "ja") =>
  (
    await db()
      .select()
      .from(translations)
      .where(and(eq(translations.kind, kind), eq(translations.key, key), eq(translations.language, language)))
  )[0];

/** Editing the translations of everything but chapters in the admin (ADR 98). */
describe.each(drivers)("other translations on %s", (driver) => {
  let handle: DatabaseHandle;
  let author: Awaited<ReturnType<typeof createReader>>;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    author = await createReader({ prefix: "otrans" });
    await db().update(users).set({ role: "author" }).where(eq(users.id, author.id));
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("lists every original but the chapters, with each language's mark", async () => {
    const rows = await listTranslatables();
    expect(rows.some((row) => (row.kind as string) === "chapter")).toBe(false);
    expect(rows.find((row) => row.kind === "wiki" && row.key === ILSE)).toMatchObject({
      label: "Ilse Marrow",
      marks: { es: "current", fr: "current", ja: "current" },
    });
    expect(new Set(rows.map((row) => row.kind))).toEqual(
      new Set(["site", "legal", "volume", "wiki", "gallery", "product", "tier", "coinPack", "goal"]),
    );
  });

  it("saves a wiki page's Spanish, shown to readers; an old version's save is a conflict that loses nothing", async () => {
    const before = await getTranslationForEdit("wiki", ILSE, "es");
    if (!before?.translation) throw new Error("the demo has Ilse in Spanish");
    const fields = {
      "field.title": "Ilse Marrow",
      "field.summary": "Archivera, hermana, testaruda.",
      body: "Nueva.",
    };
    const saved = await send("wiki", "es", ILSE, author, { ...fields, savedAt: before.translation.savedAt });
    expect(saved).toMatchObject({ status: 302, location: `${editor("wiki", "es", ILSE)}&saved` });
    expect(await stored("wiki", ILSE, "es")).toMatchObject({
      fields: { title: "Ilse Marrow", summary: "Archivera, hermana, testaruda." },
      bodyMd: "Nueva.",
    });
    const [page] = await db().select().from(wikiPages).where(eq(wikiPages.slug, "ilse-marrow"));
    if (!page) throw new Error("the demo has Ilse's page");
    expect((await wikiListIn([page], "es"))[0]?.summary).toBe("Archivera, hermana, testaruda.");
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "translation.update"), eq(auditLog.subjectId, `${ILSE} es`)));
    expect(audit?.actorId).toBe(author.id);

    // A second save from the version first opened: refused with both texts, nothing stored.
    const late = await send("wiki", "es", ILSE, author, {
      ...fields,
      body: "Mi versión.",
      savedAt: before.translation.savedAt,
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      values: { body: "Mi versión." },
      conflict: { values: { body: "Nueva." } },
    });
    expect((await stored("wiki", ILSE, "es"))?.bodyMd).toBe("Nueva.");
  });

  it("marks a translation stale when its original changes, and current once saved again", async () => {
    await db()
      .update(wikiPages)
      .set({ summary: "Archivist, changed." })
      .where(eq(wikiPages.slug, "ilse-marrow"));
    const stale = await getTranslationForEdit("wiki", ILSE, "fr");
    expect(stale?.mark).toBe("stale");
    const outcome = await saveOtherTranslation(
      "wiki",
      ILSE,
      "fr",
      { fields: { title: "Ilse Marrow", summary: "Archiviste, changée." }, body: "" },
      stale?.translation?.savedAt,
      { via: "admin", userId: author.id },
    );
    expect(outcome).toEqual({ ok: true });
    expect((await getTranslationForEdit("wiki", ILSE, "fr"))?.mark).toBe("current");
  });

  it("makes a first translation, then removes it once its box is ticked", async () => {
    const key = (await listTranslatables()).find((row) => row.kind === "coinPack")?.key ?? "";
    await db()
      .delete(translations)
      .where(and(eq(translations.kind, "coinPack"), eq(translations.key, key)));
    expect((await getTranslationForEdit("coinPack", key, "ja"))?.mark).toBe("missing");
    expect(await send("coinPack", "ja", key, author, { body: "コイン。" })).toMatchObject({ status: 302 });
    expect((await stored("coinPack", key, "ja"))?.bodyMd).toBe("コイン。");
    expect(await send("coinPack", "ja", key, author, { intent: "delete" })).toMatchObject({ status: 302 });
    expect(await stored("coinPack", key, "ja")).toBeDefined();
    await send("coinPack", "ja", key, author, { intent: "delete", confirm: "on" });
    expect(await stored("coinPack", key, "ja")).toBeUndefined();
  });

  it("refuses bad input with its messages and keeps what was typed; unknown places are 404; readers get 404", async () => {
    const refused = await send("tier", "fr", "archivist", author, {
      "field.name": "",
      "field.perks": "",
      body: "Texte gardé.",
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      errors: {
        "field.name": "admin.otherTranslation.errors.required",
        "field.perks": "admin.otherTranslation.errors.list",
      },
      values: { body: "Texte gardé." },
    });
    expect((await send("chapter", "fr", "1", author, { body: "" })).status).toBe(404);
    expect((await send("wiki", "en", ILSE, author, { body: "" })).status).toBe(404);
    const valid = { "field.title": "t", "field.summary": "s", body: "" };
    expect((await send("wiki", "fr", "no/such-page", author, valid)).status).toBe(404);
    expect((await send("wiki", "fr", "k".repeat(301), author, { body: "" })).status).toBe(404);
    const reader = await createReader({ prefix: "otreader" });
    expect((await send("wiki", "fr", ILSE, reader, { body: "" })).status).toBe(404);
    const page = await statusOf(() =>
      loader({
        request: new Request(`http://localhost${editor("wiki", "fr", ILSE)}`, {
          headers: { cookie: author.cookie },
        }),
        params: { kind: "wiki", lang: "fr" },
        context: {},
      } as never),
    );
    expect(page.status).toBe(200);
  });
});

describe.runIf(drivers.includes("postgres"))("other translations under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("of ten saves from one version, or ten first saves at once, exactly one lands", async () => {
    const actors = await Promise.all(Array.from({ length: 10 }, () => createAuthor("otrace")));
    const opened = await getTranslationForEdit("wiki", ILSE, "ja");
    const fromOne = await Promise.all(
      actors.map((actor, index) =>
        saveOtherTranslation(
          "wiki",
          ILSE,
          "ja",
          { fields: { title: `イルゼ ${index}`, summary: "要約" }, body: `${index}` },
          opened?.translation?.savedAt,
          actor,
        ),
      ),
    );
    expect(fromOne.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(fromOne.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(9);

    const key = (await listTranslatables()).find((row) => row.kind === "goal")?.key ?? "";
    await db()
      .delete(translations)
      .where(and(eq(translations.kind, "goal"), eq(translations.key, key)));
    const first = await Promise.all(
      actors.map((actor, index) =>
        saveOtherTranslation(
          "goal",
          key,
          "es",
          { fields: { title: `Meta ${index}` }, body: "" },
          undefined,
          actor,
        ),
      ),
    );
    expect(first.filter((outcome) => outcome.ok)).toHaveLength(1);
    const goal = (
      await db()
        .select()
        .from(translations)
        .where(and(eq(translations.kind, "goal"), eq(translations.key, key), eq(translations.language, "es")))
    )[0];
    const winner = first.findIndex((outcome) => outcome.ok);
    expect(goal?.fields).toEqual({ title: `Meta ${winner}` });
  });
});
