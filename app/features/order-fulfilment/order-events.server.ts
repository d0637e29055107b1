import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { cartItems, membershipGrants, orderLines, orders, payments } from "#db/schema";
import { logger } from "~/lib/logger.server";
import { releaseOrderStock, retakeOrderStock, type Tx } from "./stock.server";

/**
 * What a provider's event does to an order (ADR 25), inside the event's transaction (payments/fulfil.server.ts).
 * Each step moves the order only from the status it expects, so a replayed or out-of-order event finds
 * nothing to do.
 */

/**
 * Cancels a pending order, gives its units back and marks its payment failed (a decline, an expired
 * reservation, a provider that could not be reached). Returns whether the order was pending.
 */
export async function cancelPendingOrder(
  tx: Tx,
  where: { orderId: number } | { paymentId: number },
  now: Date,
): Promise<boolean> {
  const [cancelled] = await tx
    .update(orders)
    .set({ status: "cancelled", updatedAt: now })
    .where(
      and(
        "orderId" in where ? eq(orders.id, where.orderId) : eq(orders.paymentId, where.paymentId),
        eq(orders.status, "pending"),
      ),
    )
    .returning({ id: orders.id, paymentId: orders.paymentId });
  if (!cancelled) return false;
  await releaseOrderStock(tx, cancelled.id, now);
  await tx
    .update(payments)
    .set({ status: "failed", updatedAt: now })
    .where(and(eq(payments.id, cancelled.paymentId), eq(payments.status, "pending")));
  return true;
}

/**
 * A failed payment whose order was cancelled because its reservation ended (not declined before it): the
 * provider may still take the money (a Stripe session outlives a short reservation), and then it is paid.
 */
export async function cancelledByExpiry(tx: Tx, paymentId: number): Promise<boolean> {
  const [order] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.paymentId, paymentId),
        eq(orders.status, "cancelled"),
        sql`${orders.updatedAt} >= ${orders.reservedUntil}`,
      ),
    );
  return order !== undefined;
}

/** The price of each unit of a payment's order, unit 0..n-1 across its lines (as `grantUnits` numbers them). */
export async function unitPricesOf(tx: Tx, paymentId: number): Promise<number[]> {
  const lines = await tx
    .select({ price: orderLines.unitPriceCents, quantity: orderLines.quantity })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(eq(orders.paymentId, paymentId))
    .orderBy(asc(orderLines.id));
  return lines.flatMap((line) => Array.from({ length: line.quantity }, () => line.price));
}

/**
 * The units a refund of `refundedCents` in all covers (ADR 57): counting from the last unit, each unit whose
 * price, with the prices of the units after it, the refund reaches. $45 of a $90 order of two $45 books
 * covers the second book; $30 of it covers none; $90 both.
 */
export function unitsCoveredByRefund(unitPrices: readonly number[], refundedCents: number): number[] {
  const covered: number[] = [];
  let left = refundedCents;
  for (let unit = unitPrices.length - 1; unit >= 0; unit--) {
    const price = unitPrices[unit] ?? 0;
    if (price > left) break;
    left -= price;
    covered.push(unit);
  }
  return covered;
}

/** One membership grant per unit bought (unit 0..n-1 across the lines), each with its line's days; 0-day units grant nothing. */
async function grantUnits(tx: Tx, orderId: number, payment: { id: number; userId: number }, now: Date) {
  const lines = await tx
    .select({ days: orderLines.membershipDays, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const units = lines.flatMap((line) => Array.from({ length: line.quantity }, () => line.days));
  const grants = units.flatMap((days, unit) =>
    days > 0 ? [{ userId: payment.userId, paymentId: payment.id, unit, days, grantedAt: now }] : [],
  );
  if (grants.length) await tx.insert(membershipGrants).values(grants).onConflictDoNothing();
}

/**
 * A confirmed payment's order becomes paid: only from pending, or, paid after its reservation ended and
 * was released, if its units can be taken again (else it stays cancelled and is logged for a refund).
 * Then its membership days are granted and the buyer's cart is emptied.
 */
export async function orderPaid(
  tx: Tx,
  payment: { id: number; userId: number },
  now: Date,
): Promise<"paid" | "kept-cancelled" | "no-order"> {
  const [order] = await tx.select().from(orders).where(eq(orders.paymentId, payment.id)).for("update");
  if (!order) return "no-order";
  if (order.status === "cancelled" && order.stockReleasedAt) {
    if (!(await retakeOrderStock(tx, order.id, now))) {
      logger.warn(
        { event: "order.paid-after-expiry", orderId: order.id, paymentId: payment.id },
        "order paid after its reservation ended and sold out since: refund it",
      );
      return "kept-cancelled";
    }
  } else if (order.status !== "pending") return "no-order";
  await tx.update(orders).set({ status: "paid", paidAt: now, updatedAt: now }).where(eq(orders.id, order.id));
  await grantUnits(tx, order.id, payment, now);
  // The cart the order was placed from (features/cart): inside this transaction, so it commits with the order.
  await tx.delete(cartItems).where(eq(cartItems.userId, payment.userId));
  return "paid";
}

/** A full refund or a dispute: the order is refunded and its units go back to stock (grants: fulfil.server.ts reverse()). */
export async function orderRefunded(tx: Tx, paymentId: number, now: Date): Promise<void> {
  const [refunded] = await tx
    .update(orders)
    .set({ status: "refunded", updatedAt: now })
    .where(and(eq(orders.paymentId, paymentId), inArray(orders.status, ["paid", "shipped"])))
    .returning({ id: orders.id });
  if (refunded) await releaseOrderStock(tx, refunded.id, now);
}
