import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { type DatabaseHandle, setDatabase } from "#db/client.server";
import {
  chapters,
  coinPacks,
  fundraiserGoals,
  galleryItems,
  products,
  supportTiers,
  uploads,
} from "#db/schema";
import { getCoinPackForEdit, saveCoinPack } from "~/features/coins/coin-pack-editing.server";
import { coinPackSchema } from "~/features/coins/coin-pack-form";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import {
  createGoal,
  getGoalForEdit,
  listTiersForEdit,
  saveGoal,
  saveTier,
} from "~/features/fundraiser/fundraiser-editing.server";
import {
  createGalleryItem,
  getGalleryItemForEdit,
  saveGalleryItem,
} from "~/features/gallery/gallery-editing.server";
import { gallerySchema } from "~/features/gallery/gallery-form";
import { createProduct, getProductForEdit, saveProduct } from "~/features/shop/product-editing.server";
import { productFormValues, productSchema } from "~/features/shop/product-form";
import { uploadImage } from "~/features/uploads/store.server";
import { parseForm } from "~/lib/forms";
import { LocalMediaStore } from "~/lib/storage.server";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor } from "../support/factories";
import { solid } from "../support/images";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

/**
 * What the admin edits goes out with `npm run content -- export` and comes back whole into a fresh data
 * directory: the uploads' files and their records (size, formats), and the chapters that show them.
 */
describe.each(drivers)("content export and import of uploads on %s", (driver) => {
  let source: DatabaseHandle;
  let fresh: DatabaseHandle;
  beforeAll(async () => {
    source = await openTestDatabase(driver);
    fresh = await openTestDatabase(driver, { content: false });
  });
  afterAll(async () => {
    await source?.close();
    await fresh?.close();
  });

  it("brings an uploaded image and the chapter artwork that shows it into a fresh database", async () => {
    const media = new LocalMediaStore(tempDir("cc-media-"));
    const uploaded = await uploadImage(source.db, media, await solid(900, 1200).png().toBuffer(), {
      filename: "portrait.png",
    });
    if (!uploaded.ok) throw new Error(uploaded.code);
    const artwork = [
      { url: `/media/uploads/${uploaded.upload.hash}/900.png`, caption: "Mara", position: "after" as const },
    ];
    await source.db.update(chapters).set({ artwork }).where(eq(chapters.number, 2));

    const folder = tempDir("cc-export-");
    await exportContent(source.db, folder, media);
    const copied = new LocalMediaStore(tempDir("cc-media-"));
    const report = await importContent(fresh.db, await readContentDir(folder), { media: copied });
    expect(report.uploads).toEqual({ inserted: 1, updated: 0, unchanged: 0 });

    const record = ({ id: _id, createdAt: _at, createdBy: _by, ...rest }: typeof uploads.$inferSelect) =>
      rest;
    const [imported] = await fresh.db.select().from(uploads);
    if (!imported) throw new Error("no upload imported");
    expect(record(imported)).toEqual(record(uploaded.upload));
    for (const variant of uploaded.upload.variants)
      expect(await copied.get(variant.key), variant.key).toEqual(await media.get(variant.key));
    const [second] = await fresh.db
      .select({ artwork: chapters.artwork })
      .from(chapters)
      .where(eq(chapters.number, 2))
      .orderBy(asc(chapters.id));
    expect(second?.artwork).toEqual(artwork);

    const again = await importContent(fresh.db, await readContentDir(folder), { media: copied });
    expect(again.uploads).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
  });

  it("brings a gallery piece and a coin pack edited in the admin back the same into a fresh database", async () => {
    // The admin's commands write to the process-wide database: the source here.
    setDatabase(source);
    const actor = await createAuthor("exporter");
    const form = <S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.set(name, value);
      const parsed = parseForm(schema, data);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      return parsed.data;
    };
    const [moonglass] = await source.db.select().from(galleryItems).where(eq(galleryItems.slug, "moonglass"));
    if (!moonglass) throw new Error("demo piece missing");
    const piece = {
      title: "Moonglass, Retouched",
      imageUrl: moonglass.imageUrl,
      descriptionMd: "Edited in the admin.\n\n**Twice.**",
      order: "-3",
    };
    expect(
      await saveGalleryItem(
        moonglass.id,
        form(gallerySchema, { ...piece, base: (await getGalleryItemForEdit(moonglass.id))?.base ?? "" }),
        actor,
      ),
    ).toMatchObject({ ok: true });
    const slug = unique("admin-made-");
    expect(await createGalleryItem(form(gallerySchema, { ...piece, slug, order: "7" }), actor)).toMatchObject(
      {
        ok: true,
      },
    );
    const pack = {
      coins: "12",
      priceCents: "249",
      currency: "EUR",
      description: "Edited in the admin.",
      order: "5",
    };
    expect(
      await saveCoinPack(
        "coins-12",
        form(coinPackSchema, { ...pack, base: (await getCoinPackForEdit("coins-12"))?.base ?? "" }),
        actor,
      ),
    ).toMatchObject({ ok: true });

    const folder = tempDir("cc-export-");
    await exportContent(source.db, folder);
    await importContent(fresh.db, await readContentDir(folder));
    const pieces = async (database: typeof source.db) =>
      (
        await database
          .select()
          .from(galleryItems)
          .where(inArray(galleryItems.slug, ["moonglass", slug]))
      ).map(({ id: _id, ...row }) => row);
    expect(await pieces(fresh.db)).toEqual(expect.arrayContaining(await pieces(source.db)));
    expect(await pieces(fresh.db)).toHaveLength(2);
    const packOf = async (database: typeof source.db) =>
      (await database.select().from(coinPacks).where(eq(coinPacks.key, "coins-12")))[0];
    expect(await packOf(fresh.db)).toEqual(await packOf(source.db));
    expect(await packOf(fresh.db)).toMatchObject({ priceCents: 249, currency: "EUR", sortOrder: 5 });
  });

  it("brings a tier and a goal edited in the admin into a fresh database as they are", async () => {
    setDatabase(source);
    const actor = await createAuthor("roundtrip");
    const observer = (await listTiersForEdit()).find(({ row }) => row.key === "observer");
    if (!observer) throw new Error("no observer tier");
    const tier = await saveTier(
      {
        key: "observer",
        name: "Watcher",
        amount: 450,
        perks: ['A postcard: "from the Quarter"', "Early chapter access", "Discord role: #watch"],
        pitch: "Keep watch.\n\nFrom the wall.",
        order: -3,
        base: observer.base,
      },
      actor,
    );
    expect(tier).toEqual({ ok: true });
    // The earliest goal (its description is the file's body) and a later one (its own `description`).
    const goal = {
      descriptionMd: "Paper, ink and *the binder*.\n\n- one\n- two",
      period: "monthly" as const,
      target: 123_456,
      currency: "EUR",
      startsAt: new Date("2025-06-01T07:30:00Z"),
      endsAt: new Date("2025-12-31T23:00:00Z"),
    };
    const created = await createGoal({ ...goal, title: "First of all" }, actor);
    if (!created.ok) throw new Error(created.reason);
    const opened = await getGoalForEdit(created.id);
    expect(
      await saveGoal(
        created.id,
        { ...goal, title: "First of all, edited", target: 99_900, base: opened?.base },
        actor,
      ),
    ).toMatchObject({ ok: true });
    const later = await createGoal(
      { ...goal, title: "Later: a second press", startsAt: new Date("2026-05-05T05:05:00Z"), endsAt: null },
      actor,
    );
    expect(later).toMatchObject({ ok: true });

    const folder = tempDir("cc-export-");
    await exportContent(source.db, folder);
    await importContent(fresh.db, await readContentDir(folder), {});
    const tiers = (database: DatabaseHandle) =>
      database.db.select().from(supportTiers).orderBy(asc(supportTiers.key));
    expect(await tiers(fresh)).toEqual(await tiers(source));
    expect((await tiers(fresh)).find((row) => row.key === "observer")).toMatchObject({
      name: "Watcher",
      perks: ['A postcard: "from the Quarter"', "Early chapter access", "Discord role: #watch"],
      sortOrder: -3,
    });
    const goals = async (database: DatabaseHandle) =>
      (await database.db.select().from(fundraiserGoals).orderBy(asc(fundraiserGoals.title))).map(
        ({ id: _id, ...row }) => row,
      );
    expect(await goals(fresh)).toEqual(await goals(source));
    expect((await goals(fresh)).find((row) => row.title === "First of all, edited")).toMatchObject({
      targetCents: 99_900,
      descriptionMd: goal.descriptionMd,
      endsAt: goal.endsAt,
    });
  });

  it("brings products created and edited in the admin into a fresh database as they are", async () => {
    setDatabase(source);
    const actor = await createAuthor("shopkeeper");
    const media = new LocalMediaStore(tempDir("cc-media-"));
    const uploaded = await uploadImage(source.db, media, await solid(640, 640).png().toBuffer(), {
      filename: "pin.png",
    });
    if (!uploaded.ok) throw new Error(uploaded.code);
    /** Product `id`'s form as the admin opens it, with `change` typed over it, parsed as the action does. */
    const form = async (id: number | undefined, change: Record<string, string>) => {
      const opened = id === undefined ? undefined : await getProductForEdit(id);
      const fields = new FormData();
      for (const [name, value] of Object.entries({
        ...productFormValues(opened?.row),
        ...(opened ? { base: opened.base } : {}),
        ...change,
      }))
        fields.set(name, value);
      const parsed = parseForm(productSchema, fields);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      return parsed.data;
    };
    const created = await createProduct(
      await form(undefined, {
        name: "Lantern Pin",
        descriptionMd: "An *enamel* pin.",
        priceCents: "1200",
        category: "limited",
        stock: "40",
        imageUrl: `/media/uploads/${uploaded.upload.hash}/640.png`,
        variantKind: "gallery",
        requiresShipping: "",
        offersDedication: "on",
      }),
      actor,
    );
    if (!created.ok) throw new Error(created.reason);
    const edited = await saveProduct(
      2,
      await form(2, {
        name: "Signed Book, Volume 1",
        priceCents: "4900",
        membershipDays: "120",
        stockChange: "-7",
      }),
      actor,
    );
    expect(edited).toEqual({ ok: true, id: 2 });

    const folder = tempDir("cc-export-");
    await exportContent(source.db, folder, media);
    await importContent(fresh.db, await readContentDir(folder), {
      media: new LocalMediaStore(tempDir("cc-media-")),
    });
    const rows = async (database: DatabaseHandle["db"]) =>
      database
        .select()
        .from(products)
        .where(inArray(products.id, [2, created.id]))
        .orderBy(asc(products.id));
    const [book, pin] = await rows(source.db);
    expect(book).toMatchObject({ name: "Signed Book, Volume 1", priceCents: 4900, membershipDays: 120 });
    expect(pin).toMatchObject({ name: "Lantern Pin", variantKind: "gallery", requiresShipping: false });
    expect(await rows(fresh.db)).toEqual([book, pin]);
  });

  it("refuses an upload record whose name is not a hash or whose files lie elsewhere", async () => {
    const folder = tempDir("cc-export-");
    await exportContent(source.db, folder);
    const fs = await import("node:fs/promises");
    const [file] = (await fs.readdir(`${folder}/uploads`)).filter((name) => name.endsWith(".md"));
    if (!file) throw new Error("no upload exported");
    const text = await fs.readFile(`${folder}/uploads/${file}`, "utf8");
    await fs.writeFile(`${folder}/uploads/not-a-hash.md`, text);
    await expect(readContentDir(folder)).rejects.toThrow(/not an upload's hash/);
    await fs.rm(`${folder}/uploads/not-a-hash.md`);
    await fs.writeFile(`${folder}/uploads/${file}`, text.replaceAll("key: uploads/", "key: uploads/../"));
    await expect(readContentDir(folder)).rejects.toThrow(/variants\.0\.key/);
  });
});
