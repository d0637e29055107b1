import { and, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, galleryItems, orderLines, orders, payments, products, users } from "#db/schema";
import { applyCartIntent, CartRefused } from "~/features/cart/commands.server";
import { clearCart, getCart, saveCart } from "~/features/cart/queries.server";
import {
  createCoinPack,
  deleteCoinPack,
  getCoinPackForEdit,
  saveCoinPack,
} from "~/features/coins/coin-pack-editing.server";
import { coinPackSchema } from "~/features/coins/coin-pack-form";
import {
  createGalleryItem,
  deleteGalleryItem,
  getGalleryItemForEdit,
  saveGalleryItem,
} from "~/features/gallery/gallery-editing.server";
import { gallerySchema } from "~/features/gallery/gallery-form";
import { placeOrder } from "~/features/orders/place.server";
import { pictureOf } from "~/features/uploads/picture";
import { uploadImage } from "~/features/uploads/store.server";
import { parseForm } from "~/lib/forms";
import { LocalMediaStore } from "~/lib/storage.server";
import { action as coinPackAction } from "~/routes/admin/coin-pack";
import { action as galleryItemAction } from "~/routes/admin/gallery-item";
import { loader as coinsLoader } from "~/routes/coins/index";
import { loader as galleryLoader } from "~/routes/gallery";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader, shippingAddress } from "../support/factories";
import { solid } from "../support/images";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

/** The Art Print: its variants are the gallery's pieces (content/products/3.md). */
const ART_PRINT = 3;

const piece = {
  title: "Lantern Row at Dusk",
  imageUrl: "",
  descriptionMd: "Drawn from the roofs.\r\n",
  order: "4",
};
const pack = { coins: "40", priceCents: "599", currency: "USD", description: "A long  night.", order: "9" };

function formOf(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

function parsedWith<S extends typeof gallerySchema | typeof coinPackSchema>(schema: S) {
  return (fields: Record<string, string>) => {
    const result = parseForm(schema, formOf(fields));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.data as never;
  };
}
const galleryInput = parsedWith(gallerySchema);
const packInput = parsedWith(coinPackSchema);

const slug = (prefix: string) => unique(prefix).slice(0, 80);

/** An author signed in: the actor the commands take and the cookie the admin's actions read. */
async function signedInAuthor(prefix: string) {
  const reader = await createReader({ prefix });
  await db().update(users).set({ role: "author" }).where(eq(users.id, reader.id));
  return { actor: { via: "admin", userId: reader.id } as const, cookie: reader.cookie };
}

/** Calls an admin action as React Router does, with the author's cookie: its status and data. */
async function post(
  // biome-ignore lint/suspicious/noExplicitAny: route actions are called with the arguments they read
  action: (args: any) => unknown,
  path: string,
  params: Record<string, string>,
  cookie: string,
  fields: Record<string, string>,
) {
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const result = (await action({ request, params, context: { ip: "127.0.0.1", requestId: "t" } })) as {
    status?: number;
    init?: { status?: number };
    data?: unknown;
    headers?: Headers;
  };
  return {
    status: result.status ?? result.init?.status ?? 200,
    data: result.data as { errors?: Record<string, string>; values?: Record<string, string> } | undefined,
    location: result.headers?.get?.("Location") ?? undefined,
  };
}

/** A paid order line naming `variantId` (as a bought Art Print keeps it). */
async function orderLineFor(userId: number, variantId: number) {
  const [payment] = await db()
    .insert(payments)
    .values({
      userId,
      kind: "product",
      provider: "test",
      amountCents: 2500,
      currency: "USD",
      description: "Order",
    })
    .returning();
  const [order] = await db()
    .insert(orders)
    .values({
      userId,
      paymentId: payment?.id ?? 0,
      totalCents: 2500,
      currency: "USD",
      reservedUntil: new Date(Date.now() + 60_000),
      status: "paid",
    })
    .returning();
  await db()
    .insert(orderLines)
    .values({
      orderId: order?.id ?? 0,
      productId: ART_PRINT,
      variantId,
      productName: "Art Print",
      variantLabel: "piece",
      unitPriceCents: 2500,
      quantity: 1,
    });
  return order?.id ?? 0;
}

async function auditActions(subjectType: string, subjectId: string | number) {
  const rows = await db()
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, subjectType), eq(auditLog.subjectId, String(subjectId))));
  return rows.map((row) => row.action);
}

/** The gallery's loader as a visitor in English calls it. */
const galleryRequest = { request: new Request("http://localhost/gallery"), params: {}, context: {} } as never;

describe.each(drivers)("gallery pieces and coin packs from the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  let imageUrl: string;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const uploaded = await uploadImage(
      db(),
      new LocalMediaStore(tempDir("cc-media-")),
      await solid(600, 400).png().toBuffer(),
      {
        filename: "lantern-row.png",
      },
    );
    if (!uploaded.ok) throw new Error(uploaded.code);
    imageUrl = pictureOf(uploaded.upload)?.src ?? "";
  });
  afterAll(() => handle.close());

  it("creates a piece with an uploaded image that /gallery shows on the next request as a <picture>, then edits it", async () => {
    const { actor } = await signedInAuthor("galleryist");
    const address = slug("lantern-");
    const created = await createGalleryItem(galleryInput({ ...piece, imageUrl, slug: address }), actor);
    if (!created.ok) throw new Error(created.reason);
    const shown = (await galleryLoader(galleryRequest)).items.find((item) => item.slug === address);
    expect(shown).toMatchObject({ title: "Lantern Row at Dusk", imageUrl });
    expect(shown?.picture).toMatchObject({ src: imageUrl, width: 600, height: 400 });
    expect(shown?.html).toContain("Drawn from the roofs.");
    const [row] = await db().select().from(galleryItems).where(eq(galleryItems.id, created.id));
    // Stored as the content files keep it: trimmed text, a day.
    expect(row).toMatchObject({ descriptionMd: "Drawn from the roofs.", sortOrder: 4 });
    expect(row?.createdAt.toISOString()).toMatch(/T00:00:00\.000Z$/);

    const opened = await getGalleryItemForEdit(created.id);
    if (!opened) throw new Error("not found");
    const edit = (change: Record<string, string>) =>
      galleryInput({ ...piece, imageUrl, base: opened.base, ...change });
    expect(await saveGalleryItem(created.id, edit({ title: "Lantern Row, Late" }), actor)).toEqual({
      ok: true,
      id: created.id,
    });
    expect((await galleryLoader(galleryRequest)).items.find((item) => item.slug === address)?.title).toBe(
      "Lantern Row, Late",
    );
    // A save from the version opened before is a conflict: nothing is overwritten.
    expect(await saveGalleryItem(created.id, edit({ title: "Stale" }), actor)).toEqual({
      ok: false,
      reason: "conflict",
    });
    expect(await createGalleryItem(galleryInput({ ...piece, imageUrl, slug: address }), actor)).toEqual({
      ok: false,
      reason: "taken",
    });
    expect(await deleteGalleryItem(created.id, actor)).toEqual({ ok: true, name: "Lantern Row, Late" });
    expect((await galleryLoader(galleryRequest)).items.some((item) => item.slug === address)).toBe(false);
    expect(await auditActions("gallery", created.id)).toEqual(
      expect.arrayContaining(["gallery.create", "gallery.update", "gallery.delete"]),
    );
    expect(await deleteGalleryItem(created.id, actor)).toEqual({ ok: false, reason: "notFound" });
  });

  it("keeps an imported piece's /media/ address when its form is saved unchanged", async () => {
    const { actor } = await signedInAuthor("keeper");
    const [imported] = await db().select().from(galleryItems).where(eq(galleryItems.slug, "ash-market"));
    if (!imported) throw new Error("demo piece missing");
    const opened = await getGalleryItemForEdit(imported.id);
    const unchanged = galleryInput({
      title: imported.title,
      imageUrl: imported.imageUrl,
      descriptionMd: imported.descriptionMd,
      order: String(imported.sortOrder),
      base: opened?.base ?? "",
    });
    expect(await saveGalleryItem(imported.id, unchanged, actor)).toEqual({ ok: true, id: imported.id });
    const [after] = await db().select().from(galleryItems).where(eq(galleryItems.id, imported.id));
    expect(after).toEqual(imported);
  });

  it("refuses to delete a piece a cart or an order names, with a translated message and the counts", async () => {
    const { actor, cookie } = await signedInAuthor("refuser");
    const buyer = await createReader({ prefix: "printbuyer" });
    const created = await createGalleryItem(galleryInput({ ...piece, imageUrl, slug: slug("kept-") }), actor);
    if (!created.ok) throw new Error(created.reason);
    await saveCart(buyer.id, [{ productId: ART_PRINT, variantId: created.id, quantity: 1 }]);
    expect(await deleteGalleryItem(created.id, actor)).toEqual({
      ok: false,
      reason: "inUse",
      message: "admin.gallery.errors.inUse",
      counts: { carts: 1, orders: 0 },
    });
    // Through the page's action: a 409 naming why, never a 500; the piece is still there.
    const answer = await post(
      galleryItemAction,
      `/admin/gallery/${created.id}`,
      { id: String(created.id) },
      cookie,
      {
        intent: "delete",
        confirm: "on",
      },
    );
    expect(answer.status).toBe(409);
    expect(answer.data).toMatchObject({
      errors: { confirm: "admin.gallery.errors.inUse" },
      inUse: { carts: 1 },
    });
    await clearCart(buyer.id);
    await orderLineFor(buyer.id, created.id);
    expect(await deleteGalleryItem(created.id, actor)).toMatchObject({
      reason: "inUse",
      counts: { carts: 0, orders: 1 },
    });
    expect(await getGalleryItemForEdit(created.id)).toBeDefined();
    // Unticked: asked to confirm.
    const unticked = await post(
      galleryItemAction,
      `/admin/gallery/${created.id}`,
      { id: String(created.id) },
      cookie,
      {
        intent: "delete",
      },
    );
    expect(unticked).toMatchObject({
      status: 400,
      data: { errors: { confirm: "admin.gallery.errors.confirm" } },
    });
  });

  it("answers bad forms with 400 and what was typed, an unknown row with 404, a good one with a redirect", async () => {
    const { cookie } = await signedInAuthor("poster");
    const bad = await post(galleryItemAction, "/admin/gallery/new", {}, cookie, {
      ...piece,
      slug: "Not A Slug",
      imageUrl: "javascript:alert(1)",
    });
    expect(bad.status).toBe(400);
    expect(bad.data?.errors).toMatchObject({
      slug: "admin.gallery.errors.slug",
      imageUrl: "admin.gallery.errors.image",
    });
    expect(bad.data?.values).toMatchObject({ slug: "Not A Slug", title: piece.title });
    const missing = await post(galleryItemAction, "/admin/gallery/new", {}, cookie, { ...piece, imageUrl });
    expect(missing).toMatchObject({ status: 400, data: { errors: { slug: "admin.gallery.errors.slug" } } });
    await expect(
      post(galleryItemAction, "/admin/gallery/999999", { id: "999999" }, cookie, {
        intent: "delete",
        confirm: "on",
      }),
    ).rejects.toMatchObject({ init: { status: 404 } });
    await expect(
      post(galleryItemAction, "/admin/gallery/x", { id: "x" }, cookie, piece),
    ).rejects.toMatchObject({
      init: { status: 404 },
    });
    const key = slug("pack-").slice(0, 40);
    const created = await post(coinPackAction, "/admin/coins/new", {}, cookie, { ...pack, key });
    expect(created).toMatchObject({ status: 302, location: `/admin/coins/${key}?saved=1` });
    const taken = await post(coinPackAction, "/admin/coins/new", {}, cookie, { ...pack, key });
    expect(taken).toMatchObject({ status: 409, data: { errors: { key: "admin.coins.errors.keyTaken" } } });
    const tooCheap = await post(coinPackAction, `/admin/coins/${key}`, { key }, cookie, {
      ...pack,
      priceCents: "49",
    });
    expect(tooCheap).toMatchObject({
      status: 400,
      data: { errors: { priceCents: "admin.coins.errors.price" } },
    });
  });

  it("creates and edits a coin pack that /coins shows on the next request; deleting leaves payments as they were", async () => {
    const { actor } = await signedInAuthor("packer");
    const key = slug("night-").slice(0, 40);
    expect(await createCoinPack(packInput({ ...pack, key }), actor)).toEqual({ ok: true, id: key });
    const coins = async () =>
      (await coinsLoader({ request: new Request("http://localhost/coins") } as never)).data.packs.find(
        (shown) => shown.key === key,
      );
    expect(await coins()).toMatchObject({
      coins: 40,
      priceCents: 599,
      currency: "USD",
      description: "A long night.",
    });
    const opened = await getCoinPackForEdit(key);
    if (!opened) throw new Error("not found");
    expect(
      await saveCoinPack(key, packInput({ ...pack, priceCents: "649", base: opened.base }), actor),
    ).toEqual({
      ok: true,
      id: key,
    });
    expect((await coins())?.priceCents).toBe(649);
    expect(
      await saveCoinPack(key, packInput({ ...pack, priceCents: "999", base: opened.base }), actor),
    ).toEqual({
      ok: false,
      reason: "conflict",
    });
    expect(await createCoinPack(packInput({ ...pack, key }), actor)).toEqual({ ok: false, reason: "taken" });
    const buyer = await createReader({ prefix: "packbuyer" });
    const [payment] = await db()
      .insert(payments)
      .values({
        userId: buyer.id,
        kind: "coins",
        provider: "test",
        amountCents: 649,
        currency: "USD",
        description: "40 coins",
        coins: 40,
        coinPackKey: key,
      })
      .returning();
    expect(await deleteCoinPack(key, actor)).toEqual({ ok: true, name: key });
    expect(await coins()).toBeUndefined();
    const [kept] = await db()
      .select()
      .from(payments)
      .where(eq(payments.id, payment?.id ?? 0));
    expect(kept).toMatchObject({ coins: 40, amountCents: 649, coinPackKey: key, status: "pending" });
    expect(await auditActions("coinPack", key)).toEqual(
      expect.arrayContaining(["coinPack.create", "coinPack.update", "coinPack.delete"]),
    );
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "coinPack.update"), eq(auditLog.subjectId, key)));
    expect(entry).toMatchObject({ before: { priceCents: 599 }, after: { priceCents: 649 } });
  });
});

describe("the gallery piece and coin pack forms", () => {
  const validPiece = { ...piece, imageUrl: "/media/gallery/ash-market.svg", slug: "ok" };
  const validPack = { ...pack, key: "ok" };

  it("refuses each bad field with its message", () => {
    for (const [fields, field, value, message] of [
      [validPiece, "slug", "Has Spaces", "admin.gallery.errors.slug"],
      [validPiece, "slug", "double--hyphen", "admin.gallery.errors.slug"],
      [validPiece, "slug", "a".repeat(81), "admin.gallery.errors.slug"],
      [validPiece, "title", " ", "admin.gallery.errors.title"],
      [validPiece, "title", "x".repeat(121), "admin.gallery.errors.title"],
      [validPiece, "imageUrl", "", "admin.gallery.errors.image"],
      [validPiece, "imageUrl", "/media/../../etc passwd", "admin.gallery.errors.image"],
      [validPiece, "imageUrl", "http://example.com/a.png", "admin.gallery.errors.image"],
      [validPiece, "descriptionMd", "語".repeat(7000), "admin.gallery.errors.description"],
      [validPiece, "order", "1001", "admin.gallery.errors.order"],
      [validPiece, "order", "2.5", "admin.gallery.errors.order"],
      [validPack, "key", "new", "admin.coins.errors.key"],
      [validPack, "key", "Coins_5", "admin.coins.errors.key"],
      [validPack, "key", "a".repeat(41), "admin.coins.errors.key"],
      [validPack, "coins", "0", "admin.coins.errors.coins"],
      [validPack, "coins", "100001", "admin.coins.errors.coins"],
      [validPack, "coins", "", "admin.coins.errors.coins"],
      [validPack, "priceCents", "49", "admin.coins.errors.price"],
      [validPack, "priceCents", "100001", "admin.coins.errors.price"],
      [validPack, "priceCents", "1.99", "admin.coins.errors.price"],
      [validPack, "currency", "JPY", "admin.coins.errors.currency"],
      [validPack, "description", "x".repeat(301), "admin.coins.errors.description"],
      [validPack, "order", "-1001", "admin.coins.errors.order"],
    ] as const) {
      const schema = fields === validPiece ? gallerySchema : coinPackSchema;
      expect(
        parseForm(schema, formOf({ ...fields, [field]: value })),
        `${field}=${value.slice(0, 20)}`,
      ).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
    expect(
      parseForm(coinPackSchema, formOf({ ...validPack, coins: "100000", priceCents: "50" })),
    ).toMatchObject({
      ok: true,
      data: { coins: 100_000, priceCents: 50 },
    });
  });

  it("never throws on any fields (fuzz)", () => {
    for (const [schema, valid, extra, prefix] of [
      [gallerySchema, validPiece, "base", /^admin\.(gallery|site)\.errors\./],
      [coinPackSchema, validPack, "base", /^admin\.(coins|site)\.errors\./],
    ] as const)
      fc.assert(
        fc.property(
          fc.dictionary(
            fc.constantFrom(...Object.keys(valid), extra),
            fc.oneof(fc.string({ maxLength: 300 }), fc.integer().map(String)),
          ),
          (fields) => {
            const result = parseForm(schema, formOf(fields));
            if (!result.ok)
              for (const message of Object.values(result.errors)) expect(message).toMatch(prefix);
          },
        ),
        { numRuns: 300 },
      );
  });
});

describe.runIf(drivers.includes("postgres"))("gallery pieces and coin packs under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
    await db().update(products).set({ stock: 1000 }).where(eq(products.id, ART_PRINT));
  });
  afterAll(() => handle.close());
  const image = "/media/gallery/ash-market.svg";

  it("gives one slug to one of four pieces created with it at once, and one key to one of four packs", async () => {
    const actor = await createAuthor("gallery-racer");
    const address = slug("race-");
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map(() =>
        createGalleryItem(galleryInput({ ...piece, imageUrl: image, slug: address }), actor),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "taken")).toHaveLength(3);
    const key = slug("race-").slice(0, 40);
    const packs = await Promise.all(
      [0, 1, 2, 3].map(() => createCoinPack(packInput({ ...pack, key }), actor)),
    );
    expect(packs.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(packs.filter((outcome) => !outcome.ok && outcome.reason === "taken")).toHaveLength(3);
  });

  it("of four saves made from the same opened form at once, one is saved and three are conflicts", async () => {
    const actor = await createAuthor("gallery-saver");
    const created = await createGalleryItem(
      galleryInput({ ...piece, imageUrl: image, slug: slug("save-") }),
      actor,
    );
    if (!created.ok) throw new Error(created.reason);
    const opened = await getGalleryItemForEdit(created.id);
    const saves = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        saveGalleryItem(
          created.id,
          galleryInput({ ...piece, imageUrl: image, title: `Take ${n}`, base: opened?.base ?? "" }),
          actor,
        ),
      ),
    );
    expect(saves.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(saves.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(3);
    const key = slug("save-").slice(0, 40);
    await createCoinPack(packInput({ ...pack, key }), actor);
    const base = (await getCoinPackForEdit(key))?.base ?? "";
    const packSaves = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        saveCoinPack(key, packInput({ ...pack, priceCents: String(100 + n), base }), actor),
      ),
    );
    expect(packSaves.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(packSaves.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(3);
  });

  it("never lets a cart line and a deletion of its piece both happen (five rounds at once)", async () => {
    const actor = await createAuthor("gallery-deleter");
    for (let round = 0; round < 5; round++) {
      const reader = await createReader({ prefix: "cartracer" });
      const created = await createGalleryItem(
        galleryInput({ ...piece, imageUrl: image, slug: slug("cart-") }),
        actor,
      );
      if (!created.ok) throw new Error(created.reason);
      const [added, deleted] = await Promise.allSettled([
        applyCartIntent(
          { userId: reader.id },
          formOf({
            intent: "add",
            productId: String(ART_PRINT),
            variantId: String(created.id),
            quantity: "1",
          }),
        ),
        deleteGalleryItem(created.id, actor),
      ]);
      const inCart = (await getCart(reader.id)).some((line) => line.variantId === created.id);
      const exists = (await getGalleryItemForEdit(created.id)) !== undefined;
      if (deleted.status === "fulfilled" && deleted.value.ok) {
        expect(exists).toBe(false);
        expect(inCart).toBe(false);
        // The cart was refused with the cart's own message, never a database error.
        if (added.status === "rejected") expect(added.reason).toBeInstanceOf(CartRefused);
      } else {
        expect(deleted).toMatchObject({ status: "fulfilled", value: { reason: "inUse" } });
        expect(exists).toBe(true);
        expect(inCart).toBe(true);
      }
    }
  });

  it("never lets an order line and a deletion of its piece both happen (five rounds at once)", async () => {
    const actor = await createAuthor("order-deleter");
    for (let round = 0; round < 5; round++) {
      const reader = await createReader({ prefix: "orderracer" });
      const created = await createGalleryItem(
        galleryInput({ ...piece, imageUrl: image, slug: slug("order-") }),
        actor,
      );
      if (!created.ok) throw new Error(created.reason);
      await saveCart(reader.id, [{ productId: ART_PRINT, variantId: created.id, quantity: 1 }]);
      // The reader empties the cart in another tab while the order is placed, and the author deletes the piece.
      const [placed, deleted] = await Promise.allSettled([
        placeOrder(reader, shippingAddress, { ip: unique() }),
        clearCart(reader.id).then(() => deleteGalleryItem(created.id, actor)),
      ]);
      const lines = await db()
        .select()
        .from(orderLines)
        .where(inArray(orderLines.variantId, [created.id]));
      const exists = (await getGalleryItemForEdit(created.id)) !== undefined;
      // An order line never names a piece that is gone.
      expect(lines.length === 0 || exists, `round ${round}`).toBe(true);
      if (deleted.status === "fulfilled" && deleted.value.ok) {
        expect(lines).toHaveLength(0);
        if (placed.status === "rejected") expect(placed.reason).toMatchObject({ status: 409 });
      } else expect(placed.status).toBe("fulfilled");
    }
  });
});
