import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, siteSettings } from "#db/schema";
import { getSiteSettings } from "~/features/site/queries.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import {
  getLegalForEdit,
  getSiteForEdit,
  saveLegal,
  saveSite,
} from "~/features/site/settings-editing.server";
import { legalSchema, siteFields, siteSchema } from "~/features/site/site-form";
import { parseForm } from "~/lib/forms";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor } from "../support/factories";

/** The settings form as posted: the settings as they are, with changes. */
async function posted(change: Record<string, string> = {}) {
  const { values, base } = await getSiteForEdit();
  const form = new FormData();
  for (const field of siteFields) form.set(field, String(values[field]));
  form.set("base", base);
  for (const [name, value] of Object.entries(change)) form.set(name, value);
  return form;
}

function parsed(form: FormData) {
  const result = parseForm(siteSchema, form);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

describe.each(drivers)("site settings from the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("saves a change that every page reads at once, and logs only the fields that changed", async () => {
    const actor = await createAuthor("settings");
    const before = await getSiteSettings();
    expect(await saveSite(parsed(await posted({ tagline: "Blood bonds hold." })), actor)).toEqual({
      ok: true,
    });
    await refreshContentRevision();
    expect((await getSiteSettings()).tagline).toBe("Blood bonds hold.");
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "site.update"), eq(auditLog.actorId, actor.userId)));
    expect(entry).toMatchObject({
      before: { tagline: before.tagline },
      after: { tagline: "Blood bonds hold." },
    });
  });

  it("refuses a save made from settings changed since, overwriting nothing", async () => {
    const actor = await createAuthor("stale");
    const stale = await posted({ title: "Mine" });
    expect(await saveSite(parsed(await posted({ title: "Theirs" })), actor)).toEqual({ ok: true });
    expect(await saveSite(parsed(stale), actor)).toEqual({ ok: false, reason: "conflict" });
    const [row] = await db().select().from(siteSettings);
    expect(row?.title).toBe("Theirs");
  });

  it("refuses each bad field with its message", async () => {
    for (const [field, value, message] of [
      ["title", "", "admin.site.errors.title"],
      ["title", "x".repeat(101), "admin.site.errors.title"],
      ["tagline", "x".repeat(201), "admin.site.errors.tagline"],
      ["synopsis", "x".repeat(2001), "admin.site.errors.synopsis"],
      ["startedYear", "1899", "admin.site.errors.startedYear"],
      ["startedYear", "20.5", "admin.site.errors.startedYear"],
      ["email", "not an address", "validation.email"],
      ["socialUrl", "javascript:alert(1)", "admin.site.errors.url"],
      ["communityUrl", "http://example.com", "admin.site.errors.url"],
      ["aboutMd", "語".repeat(17_000), "admin.site.errors.about"],
      ["base", "forged", "admin.site.errors.base"],
    ] as const) {
      expect(
        parseForm(siteSchema, await posted({ [field]: value })),
        `${field}=${value.slice(0, 20)}`,
      ).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
  });

  it("saves a legal page with the date it takes effect, and refuses a stale save or a bad field", async () => {
    const actor = await createAuthor("lawyer");
    const opened = await getLegalForEdit("privacy");
    if (!opened) throw new Error("the demo content has a privacy policy");
    const form = (change: Record<string, string>) => {
      const sent = new FormData();
      for (const [name, value] of Object.entries({ ...opened.values, base: opened.base, ...change }))
        sent.set(name, value);
      return parseForm(legalSchema, sent);
    };
    const ok = form({ bodyMd: "We keep\r\nlittle.", updatedAt: "2026-12-01" });
    if (!ok.ok) throw new Error(JSON.stringify(ok.errors));
    expect(await saveLegal("privacy", ok.data, actor)).toEqual({ ok: true });
    expect(await getLegalForEdit("privacy")).toMatchObject({
      values: { bodyMd: "We keep\nlittle.", updatedAt: "2026-12-01" },
    });
    expect(await saveLegal("privacy", ok.data, actor)).toEqual({ ok: false, reason: "conflict" });
    for (const [field, value, message] of [
      ["title", "", "admin.legal.errors.title"],
      ["bodyMd", "   ", "admin.legal.errors.body"],
      ["bodyMd", "x".repeat(100_001), "admin.legal.errors.body"],
      ["updatedAt", "2026-02-31x", "admin.legal.errors.date"],
    ] as const)
      expect(form({ [field]: value }), field).toEqual({ ok: false, errors: { [field]: message } });
  });

  it("never throws on any fields (fuzz)", async () => {
    const form = await posted();
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...siteFields, "base"), fc.string({ maxLength: 300 })),
        (fields) => {
          const sent = new FormData();
          for (const [name, value] of form.entries()) sent.set(name, value);
          for (const [name, value] of Object.entries(fields)) sent.set(name, value);
          const result = parseForm(siteSchema, sent);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^(admin\.site\.errors\.|validation\.email$)/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("site settings under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of four saves made from the same settings at once, one is saved and three are conflicts", async () => {
    const actor = await createAuthor("racer");
    const forms = await Promise.all([0, 1, 2, 3].map((n) => posted({ tagline: `Tagline ${n}` })));
    const outcomes = await Promise.all(forms.map((form) => saveSite(parsed(form), actor)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toHaveLength(3);
  });
});
