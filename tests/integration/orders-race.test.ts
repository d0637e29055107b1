import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { orders, products } from "#db/schema";
import { saveCart } from "~/features/cart/queries.server";
import { releaseExpiredOrders } from "~/features/orders/expiry.server";
import { placeOrder } from "~/features/orders/place.server";
import { processEvent } from "~/features/payments/fulfil.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * The last unit, bought by several readers at the same moment, on PostgreSQL (a real pool of connections,
 * where the transactions truly run at once; PGlite runs one at a time).
 */
describe.skipIf(!drivers.includes("postgres"))("the last unit on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  const POSTER = 5;
  const address = {
    shipName: "Ilse Marrow",
    shipLine1: "12 Lantern Row",
    shipCity: "New Lumen",
    shipPostalCode: "NL-1207",
    shipCountry: "GB",
  };
  const stock = async () =>
    (await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, POSTER)))[0]
      ?.stock;

  it.each([2, 5])("sells it to exactly one of %i readers; the others are told it sold out", async (count) => {
    await handle.db.update(products).set({ stock: 1 }).where(eq(products.id, POSTER));
    const readers = await Promise.all(Array.from({ length: count }, () => createReader({ prefix: "racer" })));
    for (const reader of readers)
      await saveCart(reader.id, [{ productId: POSTER, variantId: null, quantity: 1 }]);
    const results = await Promise.allSettled(
      readers.map((reader) => placeOrder(reader, address, { ip: unique() })),
    );
    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(count - 1);
    for (const reason of refused)
      expect(reason).toMatchObject({
        status: 409,
        messageKey: "checkout.problems.soldOut",
        values: { item: "Poster 24x36" },
      });
    expect(await stock()).toBe(0);
    const all = await handle.db.select().from(orders).where(eq(orders.status, "pending"));
    expect(all.filter((o) => readers.some((r) => r.id === o.userId))).toHaveLength(1);

    const [winner] = placed;
    await answerTestCheckout(winner?.url.replace("/pay/test/", "") ?? "", "approve");
    const [paid] = await handle.db
      .select()
      .from(orders)
      .where(eq(orders.id, winner?.orderId ?? 0));
    expect(paid?.status).toBe("paid");
    expect(await stock()).toBe(0);
  });
});

describe.skipIf(!drivers.includes("postgres"))("expiry racing a payment on postgres", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("ends with the stock matching the order, whichever commits first", async () => {
    const BOOKMARKS = 1;
    const stock = async () =>
      (await handle.db.select({ stock: products.stock }).from(products).where(eq(products.id, BOOKMARKS)))[0]
        ?.stock;
    const before = await stock();
    const reader = await createReader({ prefix: "racer" });
    await saveCart(reader.id, [{ productId: BOOKMARKS, variantId: null, quantity: 2 }]);
    const placed = await placeOrder(
      reader,
      { shipName: "I", shipLine1: "1 Row", shipCity: "Lumen", shipPostalCode: "1", shipCountry: "FR" },
      { ip: unique() },
    );
    await handle.db
      .update(orders)
      .set({ reservedUntil: new Date(Date.now() - 1000) })
      .where(eq(orders.id, placed.orderId));
    const session = placed.url.replace("/pay/test/", "");
    await Promise.all([
      releaseExpiredOrders(new Date()),
      processEvent("test", {
        id: `evt_${unique()}`,
        type: "checkout.session.completed",
        effect: { kind: "paid", sessionId: session, amountCents: 3000, currency: "USD" },
      }),
    ]);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, placed.orderId));
    // Paid either way: before the expiry claims it, or after, taking its units again.
    expect(order?.status).toBe("paid");
    expect(order?.stockReleasedAt).toBeNull();
    expect(await stock()).toBe((before ?? 0) - 2);
  });
});
