import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { readingSettings } from "#db/schema";
import { lookUpSessionToken } from "~/features/auth/session.server";
import { sharedViewerOf } from "~/features/page-cache/viewer.server";
import { defaultSettings, settingChoices } from "~/features/reading-settings/settings";
import { siteRoutes } from "~/routes";
import { action as sheetAction } from "~/routes/reader/settings";
import { action as settingsAction } from "~/routes/settings";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createChapter, createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * The reading themes and the layout settings (colours, text width, paragraph spacing, alignment): saved from
 * the chapter's sheet and from /settings like the other reading settings, checked on the server, read back
 * with the session, and keeping readers of different settings on different kept pages.
 */
const context = () => ({ requestId: `req-${unique()}`, ip: "203.0.113.9" }) as never;
const fromSheet = (reader: TestReader, fields: Record<string, string>) =>
  statusOf(() =>
    sheetAction({
      request: post("/reader/settings", reader, fields),
      params: {},
      context: context(),
    } as never),
  );
const fromSettings = (reader: TestReader, fields: Record<string, string>) =>
  statusOf(() =>
    settingsAction({
      request: post("/settings", reader, { intent: "reading", ...fields }),
      params: {},
      context: context(),
    } as never),
  );
const stored = async (id: number) =>
  (await db().select().from(readingSettings).where(eq(readingSettings.userId, id)))[0];
const sessionSettings = async (reader: TestReader) =>
  (await lookUpSessionToken(reader.cookie.slice(reader.cookie.indexOf("=") + 1)))?.readingSettings;
const asForm = (settings: object) =>
  Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, String(value)]));
const sharedViewer = sharedViewerOf(siteRoutes.match);
const cookies = (cookie: string) => new Map([cookie.split("=") as [string, string]]);

describe.each(drivers)("reading themes and layout on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("saves every choice from the sheet and from /settings, and the session reads it back", async () => {
    const reader = await createReader({ prefix: "themes" });
    expect(await sessionSettings(reader)).toEqual(defaultSettings);
    const picks = [
      { theme: "sepia", textWidth: "wide", paragraphSpacing: "large", textAlign: "justify" },
      { theme: "contrast", textWidth: "narrow", paragraphSpacing: "small", textAlign: "start" },
      { theme: "auto", textWidth: "medium", paragraphSpacing: "medium", textAlign: "justify" },
    ] as const;
    for (const [index, pick] of picks.entries()) {
      const settings = { ...defaultSettings, fontSize: 18, ...pick };
      const answer =
        index % 2 === 0
          ? await fromSheet(reader, asForm(settings))
          : await fromSettings(reader, asForm(settings));
      expect(answer.status).toBe(200);
      expect(await stored(reader.id)).toMatchObject(settings);
      expect(await sessionSettings(reader)).toEqual(settings);
    }
  });

  it("keeps what a form leaves out, and refuses a bad value with a translated message, losing nothing", async () => {
    const reader = await createReader({ prefix: "keeps" });
    const chosen = { ...defaultSettings, theme: "sepia", textWidth: "wide", textAlign: "justify" } as const;
    expect((await fromSheet(reader, asForm(chosen))).status).toBe(200);
    // A form naming only the size (a page from before the themes existed) keeps the theme and the layout.
    expect((await fromSheet(reader, { fontSize: "20" })).status).toBe(200);
    expect(await sessionSettings(reader)).toEqual({ ...chosen, fontSize: 20 });
    const bads: Record<string, string>[] = [
      { theme: "dark" },
      { textWidth: "huge" },
      { paragraphSpacing: "1em" },
      { textAlign: "center" },
      { theme: "sepia", textAlign: "" },
    ];
    for (const bad of bads) {
      expect(await fromSettings(reader, bad)).toMatchObject({
        status: 400,
        body: { errors: { reading: "settings.reading.invalid" } },
      });
      expect(await fromSheet(reader, bad)).toMatchObject({ status: 400, body: { error: "bad-settings" } });
    }
    expect(await sessionSettings(reader)).toEqual({ ...chosen, fontSize: 20 });
  });

  it("never answers a 500 and never stores a value outside the choices (fuzz)", async () => {
    const reader = await createReader({ prefix: "fuzz" });
    const value = (choices: readonly (string | number)[]) =>
      fc.oneof(fc.constantFrom(...choices.map(String)), fc.string({ maxLength: 40 }), fc.constant("1e309"));
    const fields = fc.record(
      Object.fromEntries(Object.entries(settingChoices).map(([key, choices]) => [key, value(choices)])),
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fields, fc.boolean(), async (values, sheet) => {
        const answer = sheet
          ? await fromSheet(reader, values as Record<string, string>)
          : await fromSettings(reader, values as Record<string, string>);
        expect([200, 400]).toContain(answer.status);
        const row = await stored(reader.id);
        if (row)
          for (const [key, choices] of Object.entries(settingChoices))
            expect(choices as readonly unknown[]).toContain(row[key as keyof typeof settingChoices]);
      }),
      { numRuns: 80 },
    );
  });

  it("refuses a value outside the choices in the database too", async () => {
    const reader = await createReader({ prefix: "check" });
    for (const bad of [{ theme: "neon" }, { textWidth: "x" }, { paragraphSpacing: "x" }, { textAlign: "x" }])
      await expect(
        db()
          .insert(readingSettings)
          .values({ userId: reader.id, ...(bad as object) }),
      ).rejects.toThrow();
  });

  it("keeps readers who differ in one of these settings on different pages, and shares among equals", async () => {
    const chapter = await createChapter();
    const page = `/chapter/${chapter}`;
    const [plain, twin, ...others] = await Promise.all(
      ["plain", "twin", "sepia", "wide", "spaced", "justified", "paired"].map((prefix) =>
        createReader({ prefix }),
      ),
    );
    const differences = [
      { theme: "sepia" },
      { textWidth: "wide" },
      { paragraphSpacing: "large" },
      { textAlign: "justify" },
      // Side by side with the original changes the chapter's HTML itself (ADR 97).
      { sideBySide: "on" },
    ];
    for (const [index, difference] of differences.entries())
      await fromSheet(others[index] as TestReader, asForm({ ...defaultSettings, ...difference }));
    const groups = await Promise.all(
      [plain, twin, ...others].map((reader) => sharedViewer(page, cookies((reader as TestReader).cookie))),
    );
    expect(groups[0]).toMatch(/^reader /);
    expect(groups[1]).toBe(groups[0]);
    expect(new Set(groups).size).toBe(1 + differences.length);
  });

  it("keeps one whole choice when a reader's sheet and /settings save at once (race)", async () => {
    const reader = await createReader({ prefix: "racing" });
    const sheet = { ...defaultSettings, sideBySide: "on", theme: "sepia" } as const;
    const form = { ...defaultSettings, sideBySide: "off", textAlign: "justify" } as const;
    for (let run = 0; run < 5; run++) {
      const answers = await Promise.all([
        fromSheet(reader, asForm(sheet)),
        fromSettings(reader, asForm(form)),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const row = await stored(reader.id);
      const saved = {
        theme: row?.theme,
        textAlign: row?.textAlign,
        sideBySide: row?.sideBySide,
      };
      expect([
        { theme: "sepia", textAlign: "start", sideBySide: "on" },
        { theme: "auto", textAlign: "justify", sideBySide: "off" },
      ]).toContainEqual(saved);
      // The session reads back what the row holds.
      expect((await sessionSettings(reader))?.sideBySide).toBe(saved.sideBySide);
    }
  });
});
