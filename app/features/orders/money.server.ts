import { and, desc, eq, ilike, lt, or, type SQL, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { type OrderStatus, orders, type PaymentKind, payments, users } from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { sendShippedMail } from "~/features/order-fulfilment/confirmation.server";
import { shippingColumns } from "~/features/order-fulfilment/shipping-columns.server";
import { orderLinesOf } from "~/features/orders/queries.server";
import { getProvider } from "~/features/payments/providers.server";
import { deliverSigned } from "~/features/payments/webhook.server";
import type { RequestMeta } from "~/lib/context";
import { logger } from "~/lib/logger.server";

/** A page of the orders or payments list. */
export const MONEY_PAGE_SIZE = 50;

/** An order number as a reader or the author types it: "#000042", "000042" or "42". */
export function orderIdOf(text: string): number | undefined {
  const match = /^#?0*(\d{1,9})$/.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

/** `text` as an ILIKE pattern matching it literally anywhere (its %, _ and \ are not wildcards). */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** Rows whose buyer's username or e-mail contains `q`, or (a number) the row with that id. */
function buyerOrId(q: string, id: typeof orders.id | typeof payments.id): SQL | undefined {
  const number = orderIdOf(q);
  return or(
    ilike(users.username, containing(q)),
    ilike(users.email, containing(q)),
    number === undefined ? undefined : eq(id, number),
  );
}

/** Orders, newest first, by status and by number or buyer, a page at a time (`before`: the last id seen). */
export async function listOrdersForAdmin(filter: { status?: OrderStatus; q?: string; before?: number }) {
  const rows = await db()
    .select({
      id: orders.id,
      status: orders.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      createdAt: orders.createdAt,
      buyerId: users.id,
      buyer: users.username,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        filter.status ? eq(orders.status, filter.status) : undefined,
        filter.q ? buyerOrId(filter.q, orders.id) : undefined,
        filter.before ? lt(orders.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(orders.id))
    .limit(MONEY_PAGE_SIZE + 1);
  return {
    orders: rows.slice(0, MONEY_PAGE_SIZE).map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    next: rows.length > MONEY_PAGE_SIZE ? rows[MONEY_PAGE_SIZE - 1]?.id : undefined,
  };
}

/** Payments, newest first, by kind, status and number or buyer, a page at a time. */
export async function listPaymentsForAdmin(filter: {
  kind?: PaymentKind;
  status?: (typeof payments.status.enumValues)[number];
  q?: string;
  before?: number;
}) {
  const rows = await db()
    .select({
      id: payments.id,
      kind: payments.kind,
      status: payments.status,
      description: payments.description,
      coins: payments.coins,
      tierKey: payments.tierKey,
      amountCents: payments.amountCents,
      refundedCents: payments.refundedCents,
      currency: payments.currency,
      createdAt: payments.createdAt,
      buyerId: users.id,
      buyer: users.username,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .where(
      and(
        filter.kind ? eq(payments.kind, filter.kind) : undefined,
        filter.status ? eq(payments.status, filter.status) : undefined,
        filter.q ? buyerOrId(filter.q, payments.id) : undefined,
        filter.before ? lt(payments.id, filter.before) : undefined,
      ),
    )
    .orderBy(desc(payments.id))
    .limit(MONEY_PAGE_SIZE + 1);
  return {
    payments: rows
      .slice(0, MONEY_PAGE_SIZE)
      .map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    next: rows.length > MONEY_PAGE_SIZE ? rows[MONEY_PAGE_SIZE - 1]?.id : undefined,
  };
}

/** What the author sees of a payment: amounts, refunds, the buyer, and whether it can be refunded. */
const paymentColumns = {
  id: payments.id,
  kind: payments.kind,
  status: payments.status,
  provider: payments.provider,
  description: payments.description,
  coins: payments.coins,
  tierKey: payments.tierKey,
  amountCents: payments.amountCents,
  refundedCents: payments.refundedCents,
  refundRequestedCents: payments.refundRequestedCents,
  currency: payments.currency,
  providerPaymentId: payments.providerPaymentId,
  createdAt: payments.createdAt,
  paidAt: payments.paidAt,
  buyerId: users.id,
  buyer: users.username,
  email: users.email,
};

/** What is left to refund of a paid payment (what was asked for counts: its event may be on its way). */
export function refundable(payment: {
  status: string;
  providerPaymentId: string | null;
  amountCents: number;
  refundedCents: number;
  refundRequestedCents: number;
}): number {
  if (payment.status !== "paid" && payment.status !== "refunded") return 0;
  if (!payment.providerPaymentId) return 0;
  return Math.max(0, payment.amountCents - Math.max(payment.refundedCents, payment.refundRequestedCents));
}

export async function getPaymentForAdmin(id: number) {
  const [row] = await db()
    .select(paymentColumns)
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, id));
  if (!row) return undefined;
  const [order] = await db().select({ id: orders.id }).from(orders).where(eq(orders.paymentId, id));
  const { providerPaymentId: _, refundRequestedCents: __, ...shown } = row;
  return {
    ...shown,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refundable: refundable(row),
    orderId: order?.id ?? null,
  };
}

/** One order as the author ships it: lines, address, dedication, shipping, its payment and buyer. */
export async function getOrderForAdmin(id: number) {
  const [order] = await db()
    .select({
      id: orders.id,
      status: orders.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      ...shippingColumns,
      dedication: orders.dedication,
      createdAt: orders.createdAt,
      shippedAt: orders.shippedAt,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
      paymentId: orders.paymentId,
    })
    .from(orders)
    .where(eq(orders.id, id));
  if (!order) return undefined;
  const [lines, payment] = await Promise.all([orderLinesOf(id), getPaymentForAdmin(order.paymentId)]);
  return {
    ...order,
    createdAt: order.createdAt.toISOString(),
    shippedAt: order.shippedAt?.toISOString() ?? null,
    lines,
    payment,
  };
}

export type MoneyChange =
  | { ok: true }
  | { ok: false; reason: "notFound" | "status" | "tooMuch" | "otherProvider" | "unavailable" };

/**
 * Marks a paid order shipped with its carrier and tracking number, then e-mails the buyer. Only from paid,
 * under the row lock: the same form sent twice, or a refund at the same moment, finds it no longer paid.
 */
export async function markShipped(
  orderId: number,
  shipping: { carrier: string; trackingNumber: string },
  actor: Actor & { via: "admin" },
  now = new Date(),
): Promise<MoneyChange> {
  const outcome = await db().transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!order) return { ok: false, reason: "notFound" } as const;
    if (order.status !== "paid") return { ok: false, reason: "status" } as const;
    await tx
      .update(orders)
      .set({ status: "shipped", shippedAt: now, ...shipping, updatedAt: now })
      .where(eq(orders.id, orderId));
    await recordAudit(tx, actor, {
      action: "order.ship",
      subjectType: "order",
      subjectId: orderId,
      before: { status: order.status },
      after: { status: "shipped", ...shipping },
    });
    return { ok: true } as const;
  });
  if (outcome.ok) await sendShippedMail(orderId);
  return outcome;
}

/**
 * Asks the provider to refund `amount` cents of a payment ("rest": all that is left). The request takes
 * its share of the payment under the row lock first, so two at once never ask for more than was paid;
 * the provider's refund event then reverses what the payment granted (payments/fulfil.server.ts), exactly
 * as a refund made at the provider's dashboard does. A provider that fails gives the share back.
 */
export async function refundPayment(
  paymentId: number,
  amount: number | "rest",
  note: string,
  actor: Actor & { via: "admin" },
  meta?: RequestMeta,
): Promise<MoneyChange> {
  const provider = getProvider();
  const asked = await db().transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (!payment) return { ok: false, reason: "notFound" } as const;
    if (payment.provider !== provider.name) return { ok: false, reason: "otherProvider" } as const;
    const left = refundable(payment);
    if (left === 0) return { ok: false, reason: "status" } as const;
    const cents = amount === "rest" ? left : amount;
    if (cents > left) return { ok: false, reason: "tooMuch" } as const;
    const total = payment.amountCents - left + cents;
    await tx.update(payments).set({ refundRequestedCents: total }).where(eq(payments.id, paymentId));
    await recordAudit(tx, actor, {
      action: "payment.refund",
      subjectType: "payment",
      subjectId: paymentId,
      before: { refundedCents: payment.amountCents - left },
      after: { refundCents: cents, refundedCents: total, note },
    });
    return {
      ok: true,
      request: {
        providerPaymentId: payment.providerPaymentId ?? "",
        amountCents: cents,
        currency: payment.currency,
        refundedTotalCents: total,
        idempotencyKey: `refund:${paymentId}:${total}`,
      },
    } as const;
  });
  if (!asked.ok) return asked;
  let deliveries: Awaited<ReturnType<typeof provider.refund>>;
  try {
    deliveries = await provider.refund(asked.request);
  } catch (error) {
    logger.error({ paymentId, err: (error as Error).message }, "refund refused by the provider");
    await db()
      .update(payments)
      .set({
        refundRequestedCents: sql`greatest(${payments.refundedCents}, ${payments.refundRequestedCents} - ${asked.request.amountCents})`,
      })
      .where(eq(payments.id, paymentId));
    return { ok: false, reason: "unavailable" };
  }
  await deliverSigned(provider.name, deliveries, meta);
  logger.info({ paymentId, cents: asked.request.amountCents, by: actor.userId }, "refund asked");
  return { ok: true };
}
