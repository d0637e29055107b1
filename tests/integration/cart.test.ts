import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { galleryItems, products } from "#db/schema";
import { formatCartValue } from "~/features/cart/cookie.server";
import type { CartLine } from "~/features/cart/lines";
import { getCart, saveCart } from "~/features/cart/queries.server";
import { action as loginAction } from "~/routes/auth/login";
import { action as cartAction, loader as cartLoader } from "~/routes/cart";
import { action as cartReplyAction } from "~/routes/cart-reply";
import { loader as shopLayoutLoader } from "~/routes/shop/layout";
import { loader as productLoader } from "~/routes/shop/product";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";

/** Calls a route function the way React Router does. */
// biome-ignore lint/suspicious/noExplicitAny: route functions are called with the arguments they read
function call<T>(fn: (args: any) => T, request: Request, params: Record<string, string> = {}): T {
  return fn({ request, params, context: { ip: "127.0.0.1", requestId: "cart-test" } });
}

/** A POST of `fields` to /cart (a plain form) with the browser's cookies. */
function post(
  fields: Record<string, string | number>,
  cookie = "",
  // biome-ignore lint/suspicious/noExplicitAny: either cart action, called as call() calls it
  action: (args: any) => unknown = cartAction,
): Promise<Response> {
  const body = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (cookie) headers.set("Cookie", cookie);
  return call(
    action,
    new Request("http://localhost/cart", { method: "POST", body, headers }),
  ) as Promise<Response>;
}

/** The same form sent by script to /cart/reply: its JSON answer as `data`. */
async function reply(fields: Record<string, string | number>, cookie = "") {
  const response = await post(fields, cookie, cartReplyAction);
  return Object.assign(response, { data: await response.clone().json() });
}

/** Status of a route's answer (`data()` or a Response). */
function statusOf(result: unknown): number {
  const value = result as { init?: { status?: number } | null; status?: number };
  return value.status ?? value.init?.status ?? 200;
}

/** The `cart` cookie a response sets (undefined when it sets none). */
function cartCookieOf(result: unknown): string | undefined {
  const headers =
    result instanceof Response
      ? result.headers
      : new Headers((result as { init?: ResponseInit }).init?.headers);
  return headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("cart="))
    ?.split(";")[0];
}

describe.each(drivers)("the cart on %s", (driver) => {
  let handle: DatabaseHandle;
  let piece: number;
  let otherPiece: number;
  let price: Map<number, number>;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const pieces = await handle.db
      .select({ id: galleryItems.id })
      .from(galleryItems)
      .orderBy(asc(galleryItems.id));
    piece = pieces[0]?.id ?? 0;
    otherPiece = pieces[1]?.id ?? 0;
    const rows = await handle.db.select({ id: products.id, priceCents: products.priceCents }).from(products);
    price = new Map(rows.map((row) => [row.id, row.priceCents]));
  });
  afterAll(() => handle.close());

  /** A product made for the test, sold as it is (no variant), with this stock. */
  async function productWithStock(stock: number): Promise<number> {
    const [row] = await handle.db.select({ id: products.id }).from(products).orderBy(asc(products.id));
    const id = 100_000 + Math.floor(Math.random() * 1_000_000);
    expect(row).toBeDefined();
    await handle.db.insert(products).values({
      id,
      name: `Test product ${id}`,
      priceCents: 700,
      category: "limited",
      stock,
      imageUrl: "/media/products/1.svg",
      addedAt: new Date(),
    });
    return id;
  }

  const summary = async (cookie: string) =>
    (await call(shopLayoutLoader, new Request("http://localhost/shop", { headers: { Cookie: cookie } })))
      .cart;

  it("a visitor's cart: Art Print x2 with a piece and the Bookmark Set x1 make 3 items at the database's prices", async () => {
    const first = await post({
      intent: "add",
      productId: 3,
      variantId: piece,
      quantity: 2,
      redirectTo: "/shop/product/3",
    });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/shop/product/3");
    const afterPrint = cartCookieOf(first) ?? "";
    expect(first.headers.get("Set-Cookie")).toMatch(
      /^cart=3\.\d+x2; Path=\/; SameSite=Lax; Max-Age=2592000$/,
    );
    const second = await reply({ intent: "add", productId: 1, variantId: "", quantity: 1 }, afterPrint);
    expect(statusOf(second)).toBe(200);
    expect((second as unknown as { data: unknown }).data).toEqual({ ok: true, count: 3 });
    const cookie = cartCookieOf(second) ?? "";
    expect(cookie).toBe(
      `cart=${formatCartValue([
        { productId: 3, variantId: piece, quantity: 2 },
        { productId: 1, variantId: null, quantity: 1 },
      ])}`,
    );
    expect(await summary(cookie)).toEqual({
      count: 3,
      totalCents: 2 * (price.get(3) ?? 0) + (price.get(1) ?? 0),
      currency: "USD",
    });
    // Adding again raises the quantity, capped at 5.
    const more = await reply({ intent: "add", productId: 3, variantId: piece, quantity: 5 }, cookie);
    expect((more as unknown as { data: unknown }).data).toEqual({ ok: true, count: 6 });
    // Clearing removes the cookie, so the visitor's shop pages are shared again.
    const cleared = await post({ intent: "clear" }, cookie);
    expect(cleared.headers.get("Set-Cookie")).toContain("Max-Age=0");
    expect(await summary("")).toBeNull();
  });

  it("goes back only to a path on this site: redirectTo, else the Referer's path, else the shop", async () => {
    const fields = { intent: "add", productId: 1, quantity: 1 };
    expect((await post({ ...fields, redirectTo: "//evil.example/x" })).headers.get("Location")).toBe("/shop");
    expect((await post({ ...fields, redirectTo: "https://evil.example/" })).headers.get("Location")).toBe(
      "/shop",
    );
    const referred = await call(
      cartAction,
      new Request("http://localhost/cart", {
        method: "POST",
        body: new URLSearchParams(fields as unknown as Record<string, string>),
        headers: { Referer: "http://localhost/shop?category=books" },
      }),
    );
    expect((referred as Response).headers.get("Location")).toBe("/shop?category=books");
    const get = call(cartLoader, new Request("http://localhost/cart")) as Response;
    expect(get.headers.get("Location")).toBe("/shop");
  });

  it("refuses tampered requests with a 4xx and a translated message, changing nothing (visitor and reader)", async () => {
    const soldOut = await productWithStock(0);
    const scarce = await productWithStock(2);
    const reader = await createReader({ prefix: "cart-tamper" });
    const stored: CartLine[] = [{ productId: 1, variantId: null, quantity: 2 }];
    await saveCart(reader.id, stored);
    const visitorCookie = `cart=${formatCartValue(stored)}`;
    const cases: [Record<string, string | number>, number, string][] = [
      [{ intent: "add", productId: 9999, quantity: 1 }, 404, "cart.errors.unknown-product"],
      [{ intent: "add", productId: "abc", quantity: 1 }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 2147483648, quantity: 1 }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 1, quantity: 6 }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 1, quantity: 0 }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 1, quantity: "1.5" }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 1, quantity: -1 }, 400, "cart.errors.invalid"],
      [{ intent: "set", productId: 1, quantity: 9 }, 400, "cart.errors.invalid"],
      [{ intent: "buy", productId: 1, quantity: 1 }, 400, "cart.errors.invalid"],
      [{ intent: "add", productId: 6, quantity: 1 }, 400, "cart.errors.not-for-sale"],
      [{ intent: "add", productId: 3, quantity: 1 }, 400, "cart.errors.variant-required"],
      [
        { intent: "add", productId: 3, variantId: 2147483647, quantity: 1 },
        400,
        "cart.errors.unknown-variant",
      ],
      [{ intent: "add", productId: 1, variantId: piece, quantity: 1 }, 400, "cart.errors.unknown-variant"],
      [{ intent: "add", productId: soldOut, quantity: 1 }, 400, "cart.errors.sold-out"],
      [{ intent: "add", productId: scarce, quantity: 3 }, 400, "cart.errors.over-stock"],
      [{ intent: "add", productId: 1, quantity: 1, variantId: "x".repeat(20) }, 400, "cart.errors.invalid"],
    ];
    for (const cookie of [visitorCookie, reader.cookie]) {
      for (const [fields, status, message] of cases) {
        const result = await reply(fields, cookie);
        expect(statusOf(result), JSON.stringify(fields)).toBe(status);
        expect((result as unknown as { data: { error: string } }).data.error).toBe(message);
        expect(cartCookieOf(result)).toBeUndefined();
      }
    }
    expect(await getCart(reader.id)).toEqual(stored);
  });

  it("throws a plain form's refusal (no JavaScript) for the page to show, past this route's loader", async () => {
    const refused = await post({
      intent: "add",
      productId: 3,
      quantity: 1,
      redirectTo: "/shop/product/3",
    }).then(
      () => undefined,
      (error: unknown) => error as { data: unknown },
    );
    expect(statusOf(refused)).toBe(400);
    expect(refused?.data).toEqual({
      ok: false,
      error: "cart.errors.variant-required",
      back: "/shop/product/3",
    });
  });

  it("a reader's cart lives in the database: add, set, remove, clear", async () => {
    const reader = await createReader({ prefix: "cart-reader" });
    const send = (fields: Record<string, string | number>) => post(fields, reader.cookie);
    expect((await send({ intent: "add", productId: 3, variantId: piece, quantity: 2 })).status).toBe(302);
    await send({ intent: "add", productId: 3, variantId: otherPiece, quantity: 1 });
    const added = await send({ intent: "add", productId: 1, quantity: 1 });
    expect(cartCookieOf(added)).toBeUndefined();
    expect(await getCart(reader.id)).toEqual([
      { productId: 3, variantId: piece, quantity: 2 },
      { productId: 3, variantId: otherPiece, quantity: 1 },
      { productId: 1, variantId: null, quantity: 1 },
    ]);
    expect(await summary(reader.cookie)).toMatchObject({ count: 4 });
    await send({ intent: "set", productId: 1, variantId: "", quantity: 4 });
    await send({ intent: "remove", productId: 3, variantId: otherPiece });
    expect(await getCart(reader.id)).toEqual([
      { productId: 3, variantId: piece, quantity: 2 },
      { productId: 1, variantId: null, quantity: 4 },
    ]);
    await send({ intent: "clear" });
    expect(await getCart(reader.id)).toEqual([]);
    expect(await summary(reader.cookie)).toBeNull();
  });

  it("keeps every one of a reader's concurrent adds (two tabs)", async () => {
    const reader = await createReader({ prefix: "cart-race" });
    // The same item five times, and four others: each add must see the ones before it.
    const items = [
      ...Array.from({ length: 5 }, () => ({ productId: 1, variantId: "" })),
      { productId: 2, variantId: "" },
      { productId: 4, variantId: "" },
      { productId: 5, variantId: "" },
      { productId: 3, variantId: String(piece) },
    ];
    const results = await Promise.all(
      items.map((item) => post({ intent: "add", ...item, quantity: 1 }, reader.cookie)),
    );
    for (const result of results) expect(result.status).toBe(302);
    const cart = await getCart(reader.id);
    expect(cart).toHaveLength(5);
    expect(cart.find((line) => line.productId === 1)?.quantity).toBe(5);
  });

  it("merges the visitor's cart into the reader's at sign-in, capped by 5 and stock, and clears the cookie", async () => {
    const reader: TestReader = await createReader({ prefix: "cart-merge" });
    const scarce = await productWithStock(1);
    await saveCart(reader.id, [{ productId: 1, variantId: null, quantity: 4 }]);
    const visitor = formatCartValue([
      { productId: 1, variantId: null, quantity: 3 },
      { productId: 3, variantId: piece, quantity: 2 },
      { productId: scarce, variantId: null, quantity: 2 },
      { productId: 9999, variantId: null, quantity: 1 },
    ]);
    const body = new URLSearchParams({ email: reader.email, password: reader.password, redirectTo: "/shop" });
    const response = (await call(
      loginAction,
      new Request("http://localhost/login", {
        method: "POST",
        body,
        headers: { Cookie: `cart=${visitor}`, "Content-Type": "application/x-www-form-urlencoded" },
      }),
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/shop");
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("session="))).toBe(true);
    expect(cookies).toContain("cart=; Path=/; SameSite=Lax; Max-Age=0");
    expect(await getCart(reader.id)).toEqual([
      { productId: 1, variantId: null, quantity: 5 },
      { productId: 3, variantId: piece, quantity: 2 },
      { productId: scarce, variantId: null, quantity: 1 },
    ]);
  });

  it("product page: stock, the gallery pieces of the Art Print, related products of its category first", async () => {
    const page = (id: number) =>
      call(productLoader, new Request(`http://localhost/shop/product/${id}`), { id: String(id) });
    const art = await page(3);
    const pieces = await handle.db.select({ id: galleryItems.id }).from(galleryItems);
    expect(art.pieces.map((p) => p.id).sort()).toEqual(pieces.map((p) => p.id).sort());
    const [category] = await handle.db
      .select({ category: products.category })
      .from(products)
      .where(eq(products.id, 3));
    const sameCategory = await handle.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.category, category?.category ?? "prints"));
    const firstRelated = art.related.slice(0, sameCategory.length - 1).map((p) => p.id);
    expect(firstRelated.every((id) => sameCategory.some((p) => p.id === id))).toBe(true);
    expect((await page(1)).pieces).toEqual([]);
    const soldOut = await productWithStock(0);
    expect((await page(soldOut)).product.stock).toBe(0);
  });
});
