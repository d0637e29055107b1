import { and, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { payments } from "#db/schema";

/** One of the reader's own payments (another reader's id finds nothing). */
export async function getOwnPayment(userId: number, paymentId: number) {
  const [payment] = await db()
    .select({
      id: payments.id,
      kind: payments.kind,
      status: payments.status,
      coins: payments.coins,
      amountCents: payments.amountCents,
      currency: payments.currency,
    })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)));
  return payment;
}

/** What a page shows of a payment: what was bought, for how much, and where it stands. */
export const paymentSummary = {
  id: payments.id,
  kind: payments.kind,
  status: payments.status,
  description: payments.description,
  coins: payments.coins,
  tierKey: payments.tierKey,
  amountCents: payments.amountCents,
  currency: payments.currency,
};

/** The reader's purchase history, newest first (payments that never started are left out). */
export async function listPurchases(userId: number, limit = 50) {
  return db()
    .select({
      ...paymentSummary,
      refundedCents: payments.refundedCents,
      refundTierChange: payments.refundTierChange,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}
