import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters, coinPacks, contentRevision, supporters } from "#db/schema";
import { drivers, openTestDatabase } from "../../../tests/support/database";
import { exportContent } from "./export.server";
import { type ContentBundle, readContentDir } from "./files.server";
import { importContent } from "./import.server";

const everyCount = (report: Record<string, { inserted: number; updated: number; unchanged: number }>) =>
  Object.values(report).reduce(
    (sum, c) => ({ changed: sum.changed + c.inserted + c.updated, unchanged: sum.unchanged + c.unchanged }),
    {
      changed: 0,
      unchanged: 0,
    },
  );

describe.each(drivers)("content import on %s", (driver) => {
  let handle: DatabaseHandle;
  const revision = async () =>
    (await handle.db.select().from(contentRevision).where(eq(contentRevision.id, 1)))[0]?.revision ?? 0;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cc-import-"));
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("loads the demo folder, then a second import changes nothing", async () => {
    const bundle = await readContentDir("content");
    const first = await importContent(handle.db, bundle);
    expect(first.chapters).toEqual({ inserted: 11, updated: 0, unchanged: 0 });
    expect(first.supporters?.inserted).toBe(127);
    const second = await importContent(handle.db, bundle);
    expect(everyCount(second).changed).toBe(0);
  });

  it("computes word counts from the text and resolves --12-15 to the next 15 December", async () => {
    const [first] = await handle.db.select().from(chapters).where(eq(chapters.number, 1));
    const [tenth] = await handle.db.select().from(chapters).where(eq(chapters.number, 10));
    expect(first?.wordCount).toBeGreaterThanOrEqual(1500);
    expect(tenth?.releaseAt.getUTCMonth()).toBe(11);
    expect(tenth?.releaseAt.getUTCDate()).toBe(15);
    expect(tenth?.releaseAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("exports a folder that imports back unchanged, and updates only what changed", async () => {
    await exportContent(handle.db, scratch);
    expect(everyCount(await importContent(handle.db, await readContentDir(scratch))).changed).toBe(0);

    const file = path.join(scratch, "chapters/2.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^title: .*$/m, "title: A New Title"));
    const report = await importContent(handle.db, await readContentDir(scratch));
    expect(report.chapters).toEqual({ inserted: 0, updated: 1, unchanged: 10 });
    const [second] = await handle.db.select().from(chapters).where(eq(chapters.number, 2));
    expect(second?.title).toBe("A New Title");
  });

  it("stores the coin packs, and an edited price is updated", async () => {
    const packs = await handle.db.select().from(coinPacks).orderBy(asc(coinPacks.sortOrder));
    expect(packs.map((pack) => [pack.coins, pack.priceCents, pack.currency])).toEqual([
      [5, 99, "USD"],
      [12, 199, "USD"],
      [30, 449, "USD"],
      [65, 899, "USD"],
    ]);
    await exportContent(handle.db, scratch);
    const file = path.join(scratch, "coin-packs/coins-5.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("priceCents: 99", "priceCents: 129"));
    const report = await importContent(handle.db, await readContentDir(scratch));
    expect(report.coinPacks).toEqual({ inserted: 0, updated: 1, unchanged: 3 });
    const [five] = await handle.db.select().from(coinPacks).where(eq(coinPacks.key, "coins-5"));
    expect(five?.priceCents).toBe(129);
  });

  it("moves the content revision when only the achievements change, not when nothing does", async () => {
    const bundle = await readContentDir(scratch);
    // A bundle of the achievements alone (each list of the other content empty).
    const only: ContentBundle = {
      ...Object.fromEntries(
        [
          "legal",
          "volumes",
          "chapters",
          "wiki",
          "gallery",
          "products",
          "tiers",
          "coinPacks",
          "uploads",
          "translations",
        ].map((key) => [key, []]),
      ),
      achievements: bundle.achievements,
    } as ContentBundle;
    const before = await revision();
    await importContent(handle.db, only);
    expect(await revision()).toBe(before);
    const achievements = only.achievements;
    if (!achievements) throw new Error("the demo has achievements");
    const [first, ...rest] = achievements.data.achievements;
    if (!first) throw new Error("the demo has achievements");
    const edited = { ...achievements, data: { achievements: [{ ...first, icon: "🧪" }, ...rest] } };
    expect((await importContent(handle.db, { ...only, achievements: edited })).achievements).toMatchObject({
      updated: 1,
    });
    expect(await revision()).toBe(before + 1);
  });

  it("rolls the whole import back when one file is bad", async () => {
    const bundle = await readContentDir(scratch);
    const broken = {
      ...bundle,
      chapters: bundle.chapters.map((c) =>
        c.data.number === 9 ? { ...c, data: { ...c.data, volume: 99 } } : c,
      ),
    };
    const before = await handle.db.select().from(supporters);
    await expect(importContent(handle.db, { ...broken, site: undefined })).rejects.toThrowError(
      /volume 99 does not exist/,
    );
    expect(await handle.db.select().from(supporters)).toHaveLength(before.length);
  });
});
