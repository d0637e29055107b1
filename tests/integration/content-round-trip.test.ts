import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, setDatabase } from "#db/client.server";
import { chapters, products, uploads } from "#db/schema";
import { createProduct, getProductForEdit, saveProduct } from "~/features/admin/product-editing.server";
import { productFormValues, productSchema } from "~/features/admin/product-form";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { uploadImage } from "~/features/uploads/store.server";
import { parseForm } from "~/lib/forms";
import { LocalMediaStore } from "~/lib/storage.server";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor } from "../support/factories";
import { solid } from "../support/images";
import { tempDir } from "../support/temp";

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
