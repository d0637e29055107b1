import { and, asc, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { orderLines, orders, payments } from "#db/schema";
import { shippingColumns } from "~/features/order-fulfilment/shipping-columns.server";

/** An order's lines as its pages show them, in the order they were added. */
export function orderLinesOf(orderId: number) {
  return db()
    .select({
      id: orderLines.id,
      name: orderLines.productName,
      variantLabel: orderLines.variantLabel,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
      membershipDays: orderLines.membershipDays,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
}

/** One of the reader's own orders with its lines (another reader's id finds nothing). */
export async function getOwnOrder(userId: number, orderId: number) {
  const [order] = await db()
    .select({
      id: orders.id,
      status: orders.status,
      paymentStatus: payments.status,
      refundedCents: payments.refundedCents,
      refundTierChange: payments.refundTierChange,
      totalCents: orders.totalCents,
      currency: orders.currency,
      ...shippingColumns,
      dedication: orders.dedication,
      reservedUntil: orders.reservedUntil,
      createdAt: orders.createdAt,
      shippedAt: orders.shippedAt,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return undefined;
  const lines = await orderLinesOf(order.id);
  return { ...order, lines };
}

/** The reader's orders, newest first, each with what was refunded of it. */
export async function listOrders(userId: number, limit = 50) {
  return db()
    .select({
      id: orders.id,
      status: orders.status,
      totalCents: orders.totalCents,
      refundedCents: payments.refundedCents,
      currency: orders.currency,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}
