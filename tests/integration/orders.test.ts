import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import {
  cartItems,
  galleryItems,
  membershipGrants,
  orderLines,
  orders,
  payments,
  products,
  users,
} from "#db/schema";
import { saveCart } from "~/features/cart/queries.server";
import { getMembership } from "~/features/membership/queries.server";
import { tierFromGrants } from "~/features/membership/tiers";
import { releaseExpiredOrders } from "~/features/orders/expiry.server";
import { placeOrder } from "~/features/orders/place.server";
import { listOrders } from "~/features/orders/queries.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/checkout";
import { loader as orderLoader } from "~/routes/orders/order";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";
import { waitForMail } from "../support/mail";
import { unique } from "../support/unique";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-orders-"));
process.env.DATA_DIR = dataDir;

const DAY = 24 * 60 * 60 * 1000;
const ART_PRINT = 3;
const BOOKMARKS = 1;
const POSTER = 5;
const COMMISSION = 6;

const address = {
  shipName: "Ilse Marrow",
  shipLine1: "12 Lantern Row",
  shipLine2: "",
  shipCity: "New Lumen",
  shipPostalCode: "NL-1207",
  shipCountry: "GB",
};

describe.each(drivers)("orders on %s", (driver) => {
  let handle: DatabaseHandle;
  let piece: { id: number; title: string };
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const [first] = await handle.db
      .select({ id: galleryItems.id, title: galleryItems.title })
      .from(galleryItems)
      .orderBy(asc(galleryItems.id))
      .limit(1);
    if (!first) throw new Error("no gallery piece in the demo content");
    piece = first;
  });
  afterAll(() => handle.close());

  const stockOf = async (id: number) => {
    const [row] = await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, id));
    return row?.stock ?? Number.NaN;
  };
  const setStock = (id: number, stock: number) =>
    handle.db.update(products).set({ stock }).where(eq(products.id, id));
  const orderOf = async (id: number) => {
    const [row] = await handle.db.select().from(orders).where(eq(orders.id, id));
    if (!row) throw new Error(`no order ${id}`);
    return row;
  };
  const paymentOf = async (id: number) => {
    const [row] = await handle.db.select().from(payments).where(eq(payments.id, id));
    if (!row) throw new Error(`no payment ${id}`);
    return row;
  };
  const grantsOf = (userId: number) =>
    handle.db
      .select()
      .from(membershipGrants)
      .where(and(eq(membershipGrants.userId, userId), isNull(membershipGrants.revokedAt)))
      .orderBy(asc(membershipGrants.unit));
  const sessionOf = (url: string) => url.replace("/pay/test/", "");
  const countRows = async (userId: number) => ({
    orders: (await handle.db.select().from(orders).where(eq(orders.userId, userId))).length,
    payments: (await handle.db.select().from(payments).where(eq(payments.userId, userId))).length,
  });

  /** A reader whose stored cart holds two Art Prints (a gallery piece) and a Bookmark Set: $65.00. */
  async function readerWithCart() {
    const user = await createReader({ prefix: "buyer" });
    await saveCart(user.id, [
      { productId: ART_PRINT, variantId: piece.id, quantity: 2 },
      { productId: BOOKMARKS, variantId: null, quantity: 1 },
    ]);
    return user;
  }

  it("sells the $65 cart: reserved, paid once, 150 days of observer, analyst from spend, mailed, listed", async () => {
    const user = await readerWithCart();
    const before = { art: await stockOf(ART_PRINT), bookmarks: await stockOf(BOOKMARKS) };
    const placed = await placeOrder(user, address, { ip: unique() });
    expect(placed.url).toMatch(/^\/pay\/test\/tps_/);
    expect(await stockOf(ART_PRINT)).toBe(before.art - 2);
    expect(await stockOf(BOOKMARKS)).toBe(before.bookmarks - 1);
    const pending = await orderOf(placed.orderId);
    expect(pending).toMatchObject({
      status: "pending",
      totalCents: 6500,
      currency: "USD",
      shipCity: "New Lumen",
    });
    expect(pending.reservedUntil.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await paymentOf(placed.paymentId)).toMatchObject({
      kind: "product",
      status: "pending",
      amountCents: 6500,
      membershipDays: 0,
    });
    const lines = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId));
    expect(
      lines.map((l) => [l.productId, l.variantLabel, l.unitPriceCents, l.quantity, l.membershipDays]),
    ).toEqual([
      [ART_PRINT, piece.title, 2500, 2, 60],
      [BOOKMARKS, null, 1500, 1, 30],
    ]);
    expect(await grantsOf(user.id)).toEqual([]);

    const answered = await answerTestCheckout(sessionOf(placed.url), "approve");
    expect(answered).toEqual({ redirectTo: `/orders/${placed.orderId}?returned` });
    // Approving again (the same event) and an approval under another event id change nothing twice.
    await answerTestCheckout(sessionOf(placed.url), "approve");
    const again = await processEvent("test", {
      id: `evt_${unique()}`,
      type: "checkout.approved",
      effect: { kind: "paid", sessionId: sessionOf(placed.url), amountCents: 6500, currency: "USD" },
    });
    expect(again.outcome).toBe("no-change");
    // A decline arriving after the approval (out of order) changes nothing either.
    await answerTestCheckout(sessionOf(placed.url), "decline");

    expect((await orderOf(placed.orderId)).status).toBe("paid");
    expect(await stockOf(ART_PRINT)).toBe(before.art - 2);
    const grants = await grantsOf(user.id);
    expect(grants.map((g) => [g.unit, g.days])).toEqual([
      [0, 60],
      [1, 60],
      [2, 30],
    ]);
    const now = new Date();
    const cover = tierFromGrants(grants, now);
    expect(cover.tier).toBe("observer");
    expect(Math.round(((cover.until?.getTime() ?? 0) - now.getTime()) / DAY)).toBe(150);
    const membership = await getMembership(user.id);
    expect(membership).toMatchObject({ tier: "analyst", source: "spend", totalSpentCents: 6500 });
    expect(await handle.db.select().from(cartItems).where(eq(cartItems.userId, user.id))).toEqual([]);
    expect((await listOrders(user.id)).map((o) => [o.id, o.status, o.totalCents])).toEqual([
      [placed.orderId, "paid", 6500],
    ]);
    const raw = await waitForMail(dataDir, user.email, {
      containing: `#${String(placed.orderId).padStart(6, "0")}`,
    });
    // The outbox helper decodes quoted-printable byte by byte; the text part is UTF-8.
    const mail = Buffer.from(raw, "latin1").toString("utf8");
    expect(mail).toContain(`2 × Art Print 11x17 (${piece.title}): $50`);
    expect(mail).toContain("1 × Bookmark Set (5pc): $15");
    expect(mail).toContain("Total: $65");
    expect(mail).toContain("12 Lantern Row");
    expect(mail).toContain("NL-1207 New Lumen");
    expect(mail).toContain("United Kingdom");

    // A full refund gives the stock back and takes back spend, tier and days; replaying it changes nothing.
    const refund = {
      id: `evt_refund_${unique()}`,
      type: "charge.refunded",
      effect: {
        kind: "refunded" as const,
        providerPaymentId: (await paymentOf(placed.paymentId)).providerPaymentId ?? "",
        refundedCents: 6500,
        currency: "USD",
      },
    };
    expect((await processEvent("test", refund)).outcome).toBe("refunded");
    expect((await processEvent("test", refund)).outcome).toBe("duplicate");
    expect((await processEvent("test", { ...refund, id: `evt_refund_${unique()}` })).outcome).toBe(
      "refunded",
    );
    expect((await orderOf(placed.orderId)).status).toBe("refunded");
    expect(await stockOf(ART_PRINT)).toBe(before.art);
    expect(await stockOf(BOOKMARKS)).toBe(before.bookmarks);
    expect(await grantsOf(user.id)).toEqual([]);
    expect(await getMembership(user.id)).toMatchObject({ tier: "free", totalSpentCents: 0 });
  });

  it("releases the stock of a declined payment and grants nothing, even if an approval follows", async () => {
    const user = await readerWithCart();
    const before = await stockOf(ART_PRINT);
    const placed = await placeOrder(user, address, { ip: unique() });
    await answerTestCheckout(sessionOf(placed.url), "decline");
    await answerTestCheckout(sessionOf(placed.url), "decline");
    expect((await orderOf(placed.orderId)).status).toBe("cancelled");
    expect((await paymentOf(placed.paymentId)).status).toBe("failed");
    expect(await stockOf(ART_PRINT)).toBe(before);
    await answerTestCheckout(sessionOf(placed.url), "approve");
    expect((await orderOf(placed.orderId)).status).toBe("cancelled");
    expect(await stockOf(ART_PRINT)).toBe(before);
    expect(await grantsOf(user.id)).toEqual([]);
    expect(await getMembership(user.id)).toMatchObject({ tier: "free", totalSpentCents: 0 });
    // The cart is kept: the reader can try again.
    expect(await handle.db.select().from(cartItems).where(eq(cartItems.userId, user.id))).toHaveLength(2);
  });

  it("releases an expired reservation once; the test page refuses to approve it; a late payment takes the stock again", async () => {
    const user = await readerWithCart();
    const before = await stockOf(ART_PRINT);
    const placed = await placeOrder(user, address, { ip: unique() });
    const past = new Date(Date.now() - 60_000);
    await handle.db.update(orders).set({ reservedUntil: past }).where(eq(orders.id, placed.orderId));
    expect(await releaseExpiredOrders(new Date())).toBeGreaterThanOrEqual(1);
    expect(await releaseExpiredOrders(new Date())).toBe(0);
    expect((await orderOf(placed.orderId)).status).toBe("cancelled");
    expect((await paymentOf(placed.paymentId)).status).toBe("failed");
    expect(await stockOf(ART_PRINT)).toBe(before);
    expect(await answerTestCheckout(sessionOf(placed.url), "approve")).toMatchObject({ expired: true });
    expect((await paymentOf(placed.paymentId)).status).toBe("failed");

    // A provider whose session outlived the reservation (Stripe: 30 minutes at least) takes the money anyway.
    const late = await processEvent("test", {
      id: `evt_late_${unique()}`,
      type: "checkout.session.completed",
      effect: { kind: "paid", sessionId: sessionOf(placed.url), amountCents: 6500, currency: "USD" },
    });
    expect(late.outcome).toBe("fulfilled");
    expect((await orderOf(placed.orderId)).status).toBe("paid");
    expect(await stockOf(ART_PRINT)).toBe(before - 2);
    expect(await grantsOf(user.id)).toHaveLength(3);
  });

  it("keeps a late-paid order cancelled when its item sold out meanwhile (logged for a refund)", async () => {
    const user = await createReader({ prefix: "late" });
    await setStock(POSTER, 1);
    await saveCart(user.id, [{ productId: POSTER, variantId: null, quantity: 1 }]);
    const placed = await placeOrder(user, address, { ip: unique() });
    await handle.db
      .update(orders)
      .set({ reservedUntil: new Date(Date.now() - 1000) })
      .where(eq(orders.id, placed.orderId));
    await releaseExpiredOrders(new Date());
    await setStock(POSTER, 0);
    await processEvent("test", {
      id: `evt_late_${unique()}`,
      type: "checkout.session.completed",
      effect: { kind: "paid", sessionId: sessionOf(placed.url), amountCents: 3000, currency: "USD" },
    });
    expect((await orderOf(placed.orderId)).status).toBe("cancelled");
    expect(await stockOf(POSTER)).toBe(0);
    expect(await grantsOf(user.id)).toEqual([]);
    await setStock(POSTER, 60);
  });

  it.each([
    [
      "a line edited to a product priced 0",
      { productId: COMMISSION, variantId: null, quantity: 1 },
      "checkout.problems.notForSale",
    ],
    [
      "a variant on a product without variants",
      { productId: BOOKMARKS, variantId: 1, quantity: 1 },
      "checkout.problems.unknownVariant",
    ],
    [
      "no variant where one is required",
      { productId: ART_PRINT, variantId: null, quantity: 1 },
      "checkout.problems.variantRequired",
    ],
    [
      "a quantity above the stock",
      { productId: POSTER, variantId: null, quantity: 5 },
      "checkout.problems.overStock",
    ],
  ])("refuses %s with 409 and changes nothing", async (_, line, messageKey) => {
    const user = await createReader({ prefix: "tamper" });
    await setStock(POSTER, 3);
    // Written straight into the table, as a tampered or stale cart would be.
    await handle.db.insert(cartItems).values({ userId: user.id, ...line });
    const before = { poster: await stockOf(POSTER), art: await stockOf(ART_PRINT) };
    await expect(placeOrder(user, address, { ip: unique() })).rejects.toMatchObject({
      status: 409,
      messageKey,
    });
    expect(await countRows(user.id)).toEqual({ orders: 0, payments: 0 });
    expect({ poster: await stockOf(POSTER), art: await stockOf(ART_PRINT) }).toEqual(before);
    await setStock(POSTER, 60);
  });

  it.each([
    ["a price", { ...address, priceCents: "1" }, "form"],
    ["a product id", { ...address, productId: "6" }, "form"],
    ["a quantity", { ...address, quantity: "5" }, "form"],
    ["no name", { ...address, shipName: " " }, "shipName"],
    ["a postal code with symbols", { ...address, shipPostalCode: "<b>1</b>" }, "shipPostalCode"],
    ["an unknown country", { ...address, shipCountry: "XX" }, "shipCountry"],
    ["a NUL byte", { ...address, shipCity: "Lumen\u0000" }, "shipCity"],
    ["a dedication on a cart without a signed book", { ...address, dedication: "For Ilse" }, "dedication"],
    ["a name too long", { ...address, shipName: "n".repeat(101) }, "shipName"],
  ])("refuses a checkout form with %s with 400 and changes nothing", async (_, fields, field) => {
    const user = await readerWithCart();
    const before = await stockOf(ART_PRINT);
    await expect(placeOrder(user, fields, { ip: unique() })).rejects.toMatchObject({
      status: 400,
      errors: { [field]: expect.stringMatching(/^checkout\.errors\./) },
    });
    expect(await countRows(user.id)).toEqual({ orders: 0, payments: 0 });
    expect(await stockOf(ART_PRINT)).toBe(before);
  });

  it("refuses an empty cart and takes a dedication only for the signed book", async () => {
    const empty = await createReader({ prefix: "empty" });
    await expect(placeOrder(empty, address, { ip: unique() })).rejects.toMatchObject({
      status: 409,
      messageKey: "checkout.errors.emptyCart",
    });
    const user = await createReader({ prefix: "signed" });
    await saveCart(user.id, [{ productId: 2, variantId: null, quantity: 1 }]);
    const placed = await placeOrder(
      user,
      { ...address, dedication: "For Ilse,\nwho kept the lamp lit." },
      { ip: unique() },
    );
    expect((await orderOf(placed.orderId)).dedication).toBe("For Ilse,\nwho kept the lamp lit.");
  });
  it("mails the confirmation in the buyer's language", async () => {
    const user = await createReader({ prefix: "yomu" });
    await handle.db.update(users).set({ language: "ja" }).where(eq(users.id, user.id));
    await saveCart(user.id, [{ productId: BOOKMARKS, variantId: null, quantity: 1 }]);
    const placed = await placeOrder(user, { ...address, shipCountry: "JP" }, { ip: unique() });
    await answerTestCheckout(sessionOf(placed.url), "approve");
    const raw = await waitForMail(dataDir, user.email, {
      containing: String(placed.orderId).padStart(6, "0"),
    });
    const mail = Buffer.from(raw, "latin1").toString("utf8");
    expect(mail).toContain("ご注文の内容：");
    expect(mail).toContain("Bookmark Set (5pc) × 1：$15");
    expect(mail).toContain("日本");
  });

  describe("over HTTP", () => {
    const request = (path: string, cookie?: string, fields?: Record<string, string>) =>
      new Request(`http://localhost${path}`, {
        method: fields ? "POST" : "GET",
        headers: cookie ? { cookie } : {},
        ...(fields && { body: new URLSearchParams(fields) }),
      });
    const statusOf = async (run: () => Promise<unknown>) => {
      try {
        const answer = await run();
        return answer instanceof Response
          ? answer.status
          : ((answer as { init?: { status?: number } }).init?.status ?? 200);
      } catch (thrown) {
        if (thrown instanceof Response) return thrown.status;
        return (thrown as { init?: { status?: number } }).init?.status;
      }
    };

    it("sends a visitor to sign in and back, and prices the cart on the server", async () => {
      const answer = await checkoutLoader({
        request: request("/checkout"),
        params: {},
        context: {},
      } as never).catch((thrown: unknown) => thrown);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).headers.get("Location")).toBe("/login?redirectTo=%2Fcheckout");
      const user = await readerWithCart();
      const view = await checkoutLoader({
        request: request("/checkout", user.cookie),
        params: {},
        context: {},
      } as never);
      expect(view).toMatchObject({
        totalCents: 6500,
        currency: "USD",
        needs: { shipping: true, dedication: false },
      });
      expect(view.countries.length).toBeGreaterThan(200);
    });

    it("refuses a posted price or product with 400, redirects a good form to the provider with 303", async () => {
      const user = await readerWithCart();
      const context = { ip: unique(), requestId: "test" };
      const tampered = await checkoutAction({
        request: request("/checkout", user.cookie, { ...address, unitPriceCents: "1", productId: "6" }),
        params: {},
        context,
      } as never);
      expect(await statusOf(async () => tampered)).toBe(400);
      expect(await countRows(user.id)).toEqual({ orders: 0, payments: 0 });
      const placed = (await checkoutAction({
        request: request("/checkout", user.cookie, address),
        params: {},
        context,
      } as never)) as Response;
      expect(placed.status).toBe(303);
      expect(placed.headers.get("Location")).toMatch(/^\/pay\/test\/tps_/);
      const [order] = await listOrders(user.id);
      const other = await createReader({ prefix: "other" });
      const orderRequest = (cookie: string, id: string) =>
        ({ request: request(`/orders/${id}`, cookie), params: { id }, context: {} }) as never;
      expect(await statusOf(() => orderLoader(orderRequest(other.cookie, String(order?.id))))).toBe(404);
      expect(await statusOf(() => orderLoader(orderRequest(user.cookie, "1e3")))).toBe(404);
      expect(await orderLoader(orderRequest(user.cookie, String(order?.id)))).toMatchObject({
        order: { status: "pending", totalCents: 6500, country: "United Kingdom" },
      });
    });
  });
});
