import { and, asc, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { orderLines, orders, payments } from "#db/schema";

/** One of the reader's own orders with its lines (another reader's id finds nothing). */
export async function getOwnOrder(userId: number, orderId: number) {
  const [order] = await db()
    .select({
      id: orders.id,
      status: orders.status,
      paymentStatus: payments.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      shipName: orders.shipName,
      shipLine1: orders.shipLine1,
      shipLine2: orders.shipLine2,
      shipCity: orders.shipCity,
      shipPostalCode: orders.shipPostalCode,
      shipCountry: orders.shipCountry,
      dedication: orders.dedication,
      reservedUntil: orders.reservedUntil,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(payments, eq(payments.id, orders.paymentId))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) return undefined;
  const lines = await db()
    .select({
      id: orderLines.id,
      name: orderLines.productName,
      variantLabel: orderLines.variantLabel,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.id));
  return { ...order, lines };
}

/** The reader's orders, newest first. */
export async function listOrders(userId: number, limit = 50) {
  return db()
    .select({
      id: orders.id,
      status: orders.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}
