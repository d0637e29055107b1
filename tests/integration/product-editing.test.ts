import { and, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, orders, products } from "#db/schema";
import { saveCart } from "~/features/cart/queries.server";
import { placeOrder } from "~/features/orders/place.server";
import {
  createProduct,
  deleteProduct,
  getProductForEdit,
  type ProductSaveOutcome,
  saveProduct,
} from "~/features/shop/product-editing.server";
import { productFormValues, productSchema } from "~/features/shop/product-form";
import { uploadImage } from "~/features/uploads/store.server";
import { parseForm } from "~/lib/forms";
import { LocalMediaStore } from "~/lib/storage.server";
import { loader as shopLoader } from "~/routes/shop/index";
import { loader as productLoader } from "~/routes/shop/product";
import { drivers, openTestDatabase } from "../support/database";
import { createAuthor, createReader } from "../support/factories";
import { solid } from "../support/images";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

const valid = {
  name: "Moonglass Vial Charm",
  descriptionMd: "A vial of **moonglass**.\r\n\r\nIt glows.",
  priceCents: "1800",
  currency: "usd",
  category: "limited",
  membershipDays: "30",
  stock: "12",
  imageUrl: "/media/products/4.svg",
  variantKind: "none",
  requiresShipping: "on",
};

const address = {
  shipName: "Ilse Marrow",
  shipLine1: "12 Lantern Row",
  shipCity: "New Lumen",
  shipPostalCode: "NL-1207",
  shipCountry: "GB",
};

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return parseForm(productSchema, data);
}

function parsed(fields: Record<string, string>) {
  const result = form(fields);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

/** The product's form as the admin opens it now, with `change` typed over it. */
async function opened(id: number, change: Record<string, string> = {}) {
  const product = await getProductForEdit(id);
  if (!product) throw new Error(`product ${id} not found`);
  return parsed({ ...productFormValues(product.row), base: product.base, ...change });
}

async function created(actor: { via: "admin"; userId: number }, change: Record<string, string> = {}) {
  const outcome = await createProduct(parsed({ ...valid, ...change }), actor);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.id;
}

const stockOf = async (id: number) =>
  (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]?.stock;

/** Calls a route loader the way React Router does. */
// biome-ignore lint/suspicious/noExplicitAny: loaders are called with the subset of arguments they read
function call<T>(loader: (args: any) => T, path: string, params: Record<string, string> = {}): T {
  return loader({ request: new Request(`http://localhost${path}`), params, context: {} });
}

describe.each(drivers)("products from the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("creates a product with the next id, which the shop and its page show at the next request", async () => {
    const actor = await createAuthor("shopkeeper");
    const name = unique("Vial ");
    const id = await created(actor, { name });
    const [row] = await db().select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({
      name,
      descriptionMd: "A vial of **moonglass**.\n\nIt glows.",
      priceCents: 1800,
      currency: "USD",
      category: "limited",
      membershipDays: 30,
      stock: 12,
      variantKind: null,
      requiresShipping: true,
      offersDedication: false,
    });
    const shop = await call(shopLoader, "/shop");
    expect(shop.products.find((product) => product.id === id)).toMatchObject({ name, priceCents: 1800 });
    const page = await call(productLoader, `/shop/product/${id}`, { id: String(id) });
    expect(page.product).toMatchObject({ name, stock: 12 });
    expect(page.html).toContain("<strong>moonglass</strong>");

    const saved = await saveProduct(id, await opened(id, { priceCents: "2100", stockChange: "-2" }), actor);
    expect(saved).toEqual({ ok: true, id });
    expect((await call(shopLoader, "/shop")).products.find((p) => p.id === id)).toMatchObject({
      priceCents: 2100,
      stock: 10,
    });
    const audit = await db()
      .select({ action: auditLog.action, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "product"), eq(auditLog.subjectId, String(id))));
    expect(audit.map((entry) => entry.action)).toEqual(["product.create", "product.update"]);
    expect(audit[1]?.after).toMatchObject({ priceCents: 2100, stock: 10, stockChange: -2 });
  });

  it("shows an uploaded image as a picture with its sizes and formats in the shop", async () => {
    const actor = await createAuthor("shopkeeper");
    const uploaded = await uploadImage(
      db(),
      new LocalMediaStore(tempDir("cc-media-")),
      await solid(800, 800).png().toBuffer(),
      {
        filename: "pin.png",
      },
    );
    if (!uploaded.ok) throw new Error(uploaded.code);
    const id = await created(actor, { imageUrl: `/media/uploads/${uploaded.upload.hash}/800.png` });
    const tile = (await call(shopLoader, "/shop")).products.find((product) => product.id === id);
    expect(tile?.picture).toMatchObject({ width: 800, height: 800 });
    expect(tile?.picture?.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    const page = await call(productLoader, `/shop/product/${id}`, { id: String(id) });
    expect(page.product.picture?.src).toBe(tile?.picture?.src);
  });

  it("saves an imported product unchanged as it was, its image address included", async () => {
    const actor = await createAuthor("shopkeeper");
    const [before] = await db().select().from(products).where(eq(products.id, 2));
    expect(before?.imageUrl).toBe("/media/products/2.svg");
    expect(await saveProduct(2, await opened(2), actor)).toEqual({ ok: true, id: 2 });
    const [after] = await db().select().from(products).where(eq(products.id, 2));
    expect(after).toEqual(before);
  });

  it("refuses a save from a product changed since, and a removal of more units than are left", async () => {
    const actor = await createAuthor("shopkeeper");
    const id = await created(actor);
    const stale = await opened(id, { name: "First" });
    expect(await saveProduct(id, await opened(id, { name: "Second" }), actor)).toEqual({ ok: true, id });
    expect(await saveProduct(id, stale, actor)).toEqual({ ok: false, reason: "conflict" });
    expect(await saveProduct(id, await opened(id, { stockChange: "-13" }), actor)).toEqual({
      ok: false,
      reason: "stockShort",
      stock: 12,
    });
    expect(await saveProduct(id, await opened(id, { stockChange: "99990" }), actor)).toEqual({
      ok: false,
      reason: "stockOver",
      stock: 12,
    });
    expect(await saveProduct(id, await opened(id, { stockChange: "-12" }), actor)).toEqual({ ok: true, id });
    expect(await stockOf(id)).toBe(0);
    expect(await saveProduct(999_999, await opened(id), actor)).toEqual({ ok: false, reason: "notFound" });
  });

  it("adds a form's units once: the same form sent again is a conflict", async () => {
    const actor = await createAuthor("shopkeeper");
    const id = await created(actor, { stock: "5" });
    const form = await opened(id, { stockChange: "4" });
    expect(await saveProduct(id, form, actor)).toEqual({ ok: true, id });
    expect(await saveProduct(id, form, actor)).toEqual({ ok: false, reason: "conflict" });
    expect(await stockOf(id)).toBe(9);
  });

  it("keeps the units a checkout took after the form opened: the save adds to the stock as it is", async () => {
    const actor = await createAuthor("shopkeeper");
    const id = await created(actor, { stock: "5" });
    const form = await opened(id, { stockChange: "10", priceCents: "1900" });
    const reader = await createReader({ prefix: "buyer" });
    await saveCart(reader.id, [{ productId: id, variantId: null, quantity: 2 }]);
    await placeOrder(reader, address, { ip: unique() });
    expect(await stockOf(id)).toBe(3);
    expect(await saveProduct(id, form, actor)).toEqual({ ok: true, id });
    expect(await stockOf(id)).toBe(13);
  });

  it("deletes only a product no cart or order names, audited; others are refused with the counts", async () => {
    const actor = await createAuthor("shopkeeper");
    const carted = await created(actor);
    const ordered = await created(actor);
    const unused = await created(actor);
    const reader = await createReader({ prefix: "buyer" });
    await saveCart(reader.id, [{ productId: ordered, variantId: null, quantity: 1 }]);
    await placeOrder(reader, address, { ip: unique() });
    await saveCart(reader.id, [{ productId: carted, variantId: null, quantity: 1 }]);
    expect(await deleteProduct(carted, actor)).toEqual({ ok: false, reason: "inUse", carts: 1, orders: 0 });
    expect(await deleteProduct(ordered, actor)).toEqual({ ok: false, reason: "inUse", carts: 0, orders: 1 });
    expect(await deleteProduct(unused, actor)).toEqual({ ok: true, name: valid.name });
    expect(await deleteProduct(unused, actor)).toEqual({ ok: false, reason: "notFound" });
    const rows = await db()
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, [carted, ordered, unused]));
    expect(rows.map((row) => row.id).sort()).toEqual([carted, ordered].sort());
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "product.delete"), eq(auditLog.subjectId, String(unused))));
    expect(entry?.before).toMatchObject({ name: valid.name, priceCents: 1800 });
  });
});

describe("the product form", () => {
  it("refuses each bad field with its message", () => {
    for (const [field, value, message] of [
      ["name", "", "admin.products.errors.name"],
      ["name", "n".repeat(121), "admin.products.errors.name"],
      ["descriptionMd", "語".repeat(6700), "admin.products.errors.description"],
      ["priceCents", "-1", "admin.products.errors.price"],
      ["priceCents", "1000001", "admin.products.errors.price"],
      ["priceCents", "12.5", "admin.products.errors.price"],
      ["currency", "dollars", "admin.products.errors.currency"],
      ["category", "hats", "admin.products.errors.category"],
      ["membershipDays", "3651", "admin.products.errors.membershipDays"],
      ["stock", "100001", "admin.products.errors.stock"],
      ["stock", "-1", "admin.products.errors.stock"],
      ["stockChange", "-100001", "admin.products.errors.stockChange"],
      ["stockChange", "ten", "admin.products.errors.stockChange"],
      ["imageUrl", "", "admin.products.errors.image"],
      ["imageUrl", "javascript:alert(1)", "admin.products.errors.image"],
      ["variantKind", "sizes", "admin.products.errors.variant"],
    ] as const) {
      expect(form({ ...valid, [field]: value }), `${field}=${value.slice(0, 20)}`).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
    expect(parsed({ ...valid, variantKind: "gallery", offersDedication: "on" })).toMatchObject({
      variantKind: "gallery",
      offersDedication: true,
      requiresShipping: true,
    });
    const { requiresShipping: _, ...unticked } = valid;
    expect(parsed(unticked)).toMatchObject({ requiresShipping: false, priceCents: 1800, stock: 12 });
  });

  it("never throws on any fields (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...Object.keys(valid), "stockChange", "offersDedication", "base"),
          fc.oneof(fc.string({ maxLength: 300 }), fc.integer().map(String)),
        ),
        (fields) => {
          const result = form(fields);
          if (!result.ok)
            for (const message of Object.values(result.errors))
              expect(message).toMatch(/^admin\.(products|site)\.errors\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("products under concurrency on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("gives four products created at once four ids", async () => {
    const actor = await createAuthor("shopracer");
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map((n) => createProduct(parsed({ ...valid, name: `Racer ${n}` }), actor)),
    );
    const ids = outcomes.map((outcome) => (outcome.ok ? outcome.id : 0));
    expect(new Set(ids).size).toBe(4);
    expect(ids).not.toContain(0);
    const rows = await db().select().from(products).where(inArray(products.id, ids));
    expect(rows.map((row) => row.name).sort()).toEqual(["Racer 0", "Racer 1", "Racer 2", "Racer 3"]);
  });

  it("lets one of two saves from the same opened form in; the other is a conflict", async () => {
    const actor = await createAuthor("shopracer");
    const id = await created(actor);
    const base = await opened(id);
    const outcomes: ProductSaveOutcome[] = await Promise.all([
      saveProduct(id, { ...base, name: "One", stockChange: 1 }, actor),
      saveProduct(id, { ...base, name: "Two", stockChange: 1 }, actor),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(1);
    expect(await stockOf(id)).toBe(13);
  });

  it("adds the author's units and takes a checkout's at once, whichever commits first (5 rounds)", async () => {
    const actor = await createAuthor("shopracer");
    for (let round = 0; round < 5; round++) {
      const id = await created(actor, { stock: "3" });
      const add = await opened(id, { stockChange: "4" });
      const reader = await createReader({ prefix: "racer" });
      await saveCart(reader.id, [{ productId: id, variantId: null, quantity: 2 }]);
      const [order, added] = await Promise.all([
        placeOrder(reader, address, { ip: unique() }),
        saveProduct(id, add, actor),
      ]);
      expect(order.orderId).toBeGreaterThan(0);
      expect(added).toEqual({ ok: true, id });
      expect(await stockOf(id)).toBe(3 - 2 + 4);
      // Two units left; a checkout of two and a removal of two at once: whichever comes first wins, the
      // other finds none left and is refused. Never below 0, never a unit lost.
      const buyer = await createReader({ prefix: "racer" });
      await saveCart(buyer.id, [{ productId: id, variantId: null, quantity: 2 }]);
      await saveProduct(id, await opened(id, { stockChange: "-3" }), actor);
      const remove = await opened(id, { stockChange: "-2" });
      const [bought, removed] = await Promise.allSettled([
        placeOrder(buyer, address, { ip: unique() }),
        saveProduct(id, remove, actor),
      ]);
      if (removed.status === "rejected") throw removed.reason;
      if (removed.value.ok) {
        expect(bought).toMatchObject({ status: "rejected", reason: { status: 409 } });
      } else {
        if (bought.status === "rejected") throw bought.reason;
        expect(removed.value).toEqual({ ok: false, reason: "stockShort", stock: 0 });
      }
      expect(await stockOf(id)).toBe(0);
    }
  });

  it("never deletes a product a checkout is ordering: one of the two wins (5 rounds)", async () => {
    const actor = await createAuthor("shopracer");
    for (let round = 0; round < 5; round++) {
      const id = await created(actor, { stock: "3" });
      const reader = await createReader({ prefix: "racer" });
      await saveCart(reader.id, [{ productId: id, variantId: null, quantity: 1 }]);
      // The reader empties the cart in another tab as the checkout starts, so the deletion may go ahead.
      const [checkout, deletion] = await Promise.allSettled([
        placeOrder(reader, address, { ip: unique() }),
        saveCart(reader.id, []).then(() => deleteProduct(id, actor)),
      ]);
      if (deletion.status !== "fulfilled") throw deletion.reason;
      const placed = await db().select().from(orders).where(eq(orders.userId, reader.id));
      if (deletion.value.ok) {
        // Deleted: the checkout found an empty cart or no units left, and said so (never a 500).
        expect(checkout.status).toBe("rejected");
        expect(checkout.status === "rejected" && checkout.reason).toMatchObject({ status: 409 });
        expect(placed).toHaveLength(0);
      } else {
        expect(deletion.value).toEqual({ ok: false, reason: "inUse", carts: 0, orders: 1 });
        expect(checkout.status).toBe("fulfilled");
        expect(placed).toHaveLength(1);
        expect(await stockOf(id)).toBe(2);
      }
    }
  });
});
