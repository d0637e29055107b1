import { and, asc, eq, lt } from "drizzle-orm";
import { db } from "#db/client.server";
import { orders, payments } from "#db/schema";
import { cancelPendingOrder } from "~/features/order-fulfilment/order-events.server";
import { logger } from "~/lib/logger.server";

/** Orders released per run: one transaction each run, short enough not to hold many rows. */
const BATCH = 100;

/**
 * Cancels pending orders whose reservation ended, gives their units back and marks their payments failed
 * (ADR 25). Rows another transaction holds (an event for that order in flight) are skipped, not waited
 * for: the next run takes them if they are still pending. Returns how many were released.
 */
export async function releaseExpiredOrders(now = new Date(), limit = BATCH): Promise<number> {
  return db().transaction(async (tx) => {
    // The order and its payment are both locked, skipping either if held: a provider's event locks the
    // payment, then the order; waiting here on one while holding the other could deadlock with it.
    const claimed = await tx
      .select({ id: orders.id })
      .from(orders)
      .innerJoin(payments, eq(payments.id, orders.paymentId))
      .where(and(eq(orders.status, "pending"), lt(orders.reservedUntil, now)))
      .orderBy(asc(orders.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    let released = 0;
    for (const { id } of claimed) if (await cancelPendingOrder(tx, { orderId: id }, now)) released++;
    if (released) logger.info({ event: "orders.expired", released }, "expired orders released");
    return released;
  });
}

let timer: NodeJS.Timeout | undefined;

/** Runs releaseExpiredOrders every minute in this process (server/app.ts); never keeps the process alive. */
export function startOrderExpiry(everyMs = 60_000): void {
  if (timer) return;
  timer = setInterval(() => {
    releaseExpiredOrders().catch((error: unknown) =>
      logger.error({ event: "orders.expiry-failed", err: error }, "releasing expired orders failed"),
    );
  }, everyMs);
  timer.unref();
}

export function stopOrderExpiry(): void {
  clearInterval(timer);
  timer = undefined;
}
