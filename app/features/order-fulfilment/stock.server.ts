import { and, asc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { orderLines, orders, products } from "#db/schema";

/**
 * An order's units and stock (ADR 25): taken when the order is placed, given back exactly once when it is
 * declined, expires, cannot reach the provider, or is refunded. Shared by features/orders (placing,
 * expiry) and features/payments (the provider's events), so neither imports the other.
 */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A product had fewer units left than asked: the whole transaction rolls back. */
export class SoldOut extends Error {
  override name = "SoldOut";
  constructor(readonly productId: number) {
    super(`product ${productId} sold out`);
  }
}

/** Units per product, in product-id order: every transaction locks products in the same order, so two never deadlock. */
function unitsByProduct(lines: { productId: number | null; quantity: number }[]): [number, number][] {
  const units = new Map<number, number>();
  for (const line of lines)
    if (line.productId !== null) units.set(line.productId, (units.get(line.productId) ?? 0) + line.quantity);
  return [...units].sort(([a], [b]) => a - b);
}

/**
 * Takes the units from stock, one conditional update per product (`stock >= q`, so stock never goes below
 * 0 and a concurrent buyer waits on the row, then sees what is left). Throws SoldOut on the first product
 * short of units; the caller's transaction then rolls back what was taken before it.
 */
export async function takeUnits(tx: Tx, lines: { productId: number | null; quantity: number }[]) {
  for (const [productId, quantity] of unitsByProduct(lines)) {
    const taken = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}` })
      .where(and(eq(products.id, productId), gte(products.stock, quantity)))
      .returning({ id: products.id });
    if (!taken.length) throw new SoldOut(productId);
  }
}

async function linesOf(tx: Tx, orderId: number) {
  return tx
    .select({ productId: orderLines.productId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
}

/**
 * Gives an order's units back to stock, once: the order's `stockReleasedAt` is claimed first, so a second
 * call (a replayed event, expiry racing a decline) finds it set and does nothing. The only place stock is
 * released. Returns whether it released.
 */
export async function releaseOrderStock(tx: Tx, orderId: number, now: Date): Promise<boolean> {
  const [claimed] = await tx
    .update(orders)
    .set({ stockReleasedAt: now, updatedAt: now })
    .where(and(eq(orders.id, orderId), isNull(orders.stockReleasedAt)))
    .returning({ id: orders.id });
  if (!claimed) return false;
  for (const [productId, quantity] of unitsByProduct(await linesOf(tx, orderId)))
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${quantity}` })
      .where(eq(products.id, productId));
  return true;
}

/**
 * Takes a released order's units again (paid after its reservation ended). In a savepoint: when a product
 * is short, nothing is taken and false is returned.
 */
export async function retakeOrderStock(tx: Tx, orderId: number, now: Date): Promise<boolean> {
  try {
    await tx.transaction(async (savepoint) => {
      await takeUnits(savepoint, await linesOf(savepoint, orderId));
      await savepoint
        .update(orders)
        .set({ stockReleasedAt: null, updatedAt: now })
        .where(eq(orders.id, orderId));
    });
    return true;
  } catch (error) {
    if (error instanceof SoldOut) return false;
    throw error;
  }
}
