import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, wikiPages } from "#db/schema";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { getWikiPage } from "~/features/wiki/queries.server";
import {
  createWikiPage,
  deleteWikiPage,
  getWikiPageForEdit,
  saveWikiPage,
} from "~/features/wiki/wiki-editing.server";
import { wikiSchema } from "~/features/wiki/wiki-form";
import { parseForm } from "~/lib/forms";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor } from "../support/factories";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

const valid = {
  section: "characters",
  title: "Tamsin",
  summary: "A roof-runner who knows the Watch's rounds.",
  order: "5",
  imageUrl: "",
  revealsChapter: "4",
  bodyMd: "She taught Ilse the roofs.\r\n\r\nShe never says why.",
};

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return parseForm(wikiSchema, data);
}

function parsed(fields: Record<string, string>) {
  const result = form(fields);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

describe.each(drivers)("wiki pages from the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("creates a page with the chapter that reveals it, which the wiki shows and the export keeps", async () => {
    const actor = await createAuthor("wikiwriter");
    const slug = unique("tamsin-")
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "");
    const created = await createWikiPage(parsed({ ...valid, slug }), actor);
    if (!created.ok) throw new Error(created.reason);
    expect(await getWikiPage("characters", slug)).toMatchObject({
      title: "Tamsin",
      bodyMd: "She taught Ilse the roofs.\n\nShe never says why.",
    });
    const [row] = await db().select().from(wikiPages).where(eq(wikiPages.id, created.id));
    expect(row).toMatchObject({ sortOrder: 5, revealsChapter: 4, imageUrl: null });
    const folder = tempDir("cc-wiki-");
    await exportContent(db(), folder);
    const bundle = await readContentDir(folder);
    expect(bundle.wiki.find((page) => page.slug === slug)?.data).toMatchObject({
      revealsChapter: 4,
      order: 5,
    });
    // The same address again in the section is refused; in another section it is free.
    expect(await createWikiPage(parsed({ ...valid, slug }), actor)).toEqual({
      ok: false,
      reason: "taken",
    });
    expect(await createWikiPage(parsed({ ...valid, slug, section: "items" }), actor)).toMatchObject({
      ok: true,
    });
  });

  it("saves from the version opened, refuses a stale save, deletes with an audit entry", async () => {
    const actor = await createAuthor("wikieditor");
    const slug = unique("page-")
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "");
    const created = await createWikiPage(parsed({ ...valid, slug }), actor);
    if (!created.ok) throw new Error(created.reason);
    const opened = await getWikiPageForEdit(created.id);
    if (!opened) throw new Error("not found");
    const edit = (change: Record<string, string>) => parsed({ ...valid, base: opened.base, ...change });
    expect(await saveWikiPage(created.id, edit({ title: "Tamsin Reed", revealsChapter: "" }), actor)).toEqual(
      {
        ok: true,
        id: created.id,
      },
    );
    expect((await getWikiPageForEdit(created.id))?.row).toMatchObject({
      title: "Tamsin Reed",
      revealsChapter: null,
    });
    expect(await saveWikiPage(created.id, edit({ title: "Stale" }), actor)).toEqual({
      ok: false,
      reason: "conflict",
    });
    expect(await deleteWikiPage(created.id, actor)).toMatchObject({ ok: true });
    expect(await getWikiPageForEdit(created.id)).toBeUndefined();
    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(created.id)));
    expect(actions.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["wiki.create", "wiki.update", "wiki.delete"]),
    );
    expect(await deleteWikiPage(created.id, actor)).toEqual({ ok: false, reason: "notFound" });
  });
});

describe("the wiki page form", () => {
  it("refuses each bad field with its message", () => {
    for (const [field, value, message] of [
      ["section", "spells", "admin.wiki.errors.section"],
      ["slug", "Has Spaces", "admin.wiki.errors.slug"],
      ["slug", "../up", "admin.wiki.errors.slug"],
      ["slug", "a".repeat(61), "admin.wiki.errors.slug"],
      ["title", "", "admin.wiki.errors.title"],
      ["summary", "x".repeat(301), "admin.wiki.errors.summary"],
      ["order", "1.5", "admin.wiki.errors.order"],
      ["order", "1001", "admin.wiki.errors.order"],
      ["revealsChapter", "0", "admin.wiki.errors.reveals"],
      ["revealsChapter", "four", "admin.wiki.errors.reveals"],
      ["imageUrl", "javascript:alert(1)", "admin.chapter.errors.artworkUrl"],
      ["bodyMd", "語".repeat(34_000), "admin.wiki.errors.body"],
    ] as const) {
      expect(form({ ...valid, slug: "ok", [field]: value }), `${field}=${value.slice(0, 20)}`).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
  });

  it("never throws on any fields (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...Object.keys(valid), "slug", "base"), fc.string({ maxLength: 300 })),
        (fields) => {
          const result = form(fields);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^admin\.(wiki|site|chapter)\.errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("wiki pages under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("gives one address to one of four pages created with it at once", async () => {
    const actor = await createAuthor("wikiracer");
    const slug = unique("race-")
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "");
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map(() => createWikiPage(parsed({ ...valid, slug }), actor)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "taken")).toHaveLength(3);
  });
});
