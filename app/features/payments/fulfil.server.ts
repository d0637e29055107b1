import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { membershipGrants, paymentEvents, payments, users } from "#db/schema";
import { forgetKeptSessions } from "~/features/auth/session.server";
import { book } from "~/features/coins/ledger.server";
import { unlockWithinPurchase } from "~/features/coins/unlock.server";
import { recordSupport } from "~/features/fundraiser/supporters.server";
import { getMembership } from "~/features/membership/queries.server";
import type { MembershipTier } from "~/features/membership/tiers";
import {
  cancelledByExpiry,
  cancelPendingOrder,
  orderPaid,
  orderRefunded,
  unitPricesOf,
  unitsCoveredByRefund,
} from "~/features/order-fulfilment/order-events.server";
import type { RequestMeta } from "~/lib/context";
import { AppError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import type { PaymentEffect, ProviderEvent, ProviderName } from "./provider.server";
import {
  applySubscriptionState,
  endSubscriptionOf,
  lockPendingCheckout,
  lockSubscription,
  recordFailedInvoice,
  recordInvoice,
  type Subscription,
  startSubscription,
} from "./subscription-events.server";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Payment = typeof payments.$inferSelect;

/** The provider's confirmation does not match what we asked for: nothing is granted. */
export class PaymentMismatch extends AppError {
  override name = "PaymentMismatch";
  constructor(message?: string) {
    super("mismatch", 400, "error.body", message);
  }
}

export type EventOutcome =
  | "duplicate"
  | "fulfilled"
  | "failed"
  | "refunded"
  | "disputed"
  | "subscription"
  | "invoice"
  | "renewal-failed"
  | "no-change"
  | "unknown-payment"
  | "ignored";

async function findPayment(
  tx: Tx,
  provider: ProviderName,
  effect: PaymentEffect,
): Promise<Payment | undefined> {
  let where: ReturnType<typeof eq> | undefined;
  if (effect.kind === "paid" || effect.kind === "failed")
    where = and(eq(payments.provider, provider), eq(payments.providerSessionId, effect.sessionId));
  if (effect.kind === "refunded" || effect.kind === "disputed")
    where = and(eq(payments.provider, provider), eq(payments.providerPaymentId, effect.providerPaymentId));
  if (effect.kind === "invoice-paid" && effect.paymentRef !== null)
    // The first invoice before the checkout's own confirmation: it confirms the checkout.
    return (await lockSubscription(tx, provider, effect.subscriptionId))
      ? undefined
      : lockPendingCheckout(tx, provider, effect.paymentRef);
  if (!where) return undefined;
  // Locked: two different events for one payment (two partial refunds) take turns.
  const [payment] = await tx.select().from(payments).where(where).limit(1).for("update");
  return payment;
}

/** Takes back up to `coins` coins, as far as the balance allows (the balance never goes below 0). */
async function takeBackCoins(
  tx: Tx,
  payment: Payment,
  coins: number,
  eventId: string,
  meta: RequestMeta | undefined,
): Promise<number> {
  // A deleted account's payment: there is no balance left to take from.
  if (coins <= 0 || payment.userId === null) return 0;
  const [row] = await tx
    .select({ balance: users.coinBalance })
    .from(users)
    .where(eq(users.id, payment.userId))
    .for("update");
  const taken = Math.min(coins, row?.balance ?? 0);
  if (taken > 0)
    await book(
      tx,
      {
        userId: payment.userId,
        delta: -taken,
        reason: "refund",
        reference: `payment:${payment.id}`,
        idempotencyKey: `refund:${payment.provider}:${eventId}`,
      },
      meta,
    );
  if (taken < coins)
    logger.warn(
      { paymentId: payment.id, userId: payment.userId, owed: coins, taken },
      "refund: coins already spent",
    );
  return taken;
}

async function fulfil(
  tx: Tx,
  payment: Payment,
  effect: Extract<PaymentEffect, { kind: "paid" }>,
  now: Date,
  meta: RequestMeta | undefined,
) {
  // Only a pending payment becomes paid: a second confirmation (another event id) finds nothing to do. An
  // order's payment failed only because its reservation ended is still taken when the money arrives (ADR 25).
  const from =
    payment.kind === "product" && payment.status === "failed" && (await cancelledByExpiry(tx, payment.id))
      ? "failed"
      : "pending";
  const [updated] = await tx
    .update(payments)
    .set({
      status: "paid",
      paidAt: now,
      updatedAt: now,
      providerPaymentId: effect.providerPaymentId ?? payment.providerPaymentId,
    })
    .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
    .returning();
  if (!updated) return "no-change" as const;
  if (updated.userId === null) {
    // The account was deleted while the payment was open: the money is recorded, there is nobody to grant.
    logger.warn({ paymentId: updated.id }, "paid for a deleted account: refund it");
    return "fulfilled" as const;
  }
  const paid = { ...updated, userId: updated.userId };
  if (paid.kind === "product") await orderPaid(tx, paid, now);
  if (paid.coins > 0)
    await book(
      tx,
      {
        userId: paid.userId,
        delta: paid.coins,
        reason: "purchase",
        reference: `payment:${paid.id}`,
        idempotencyKey: `purchase:payment:${paid.id}`,
      },
      meta,
    );
  if (paid.unlockChapter && paid.chapterNumber !== null) {
    // Only here, after the provider confirmed the money: the coins just booked pay for the chapter.
    const unlocked = await unlockWithinPurchase(tx, paid.userId, paid.chapterNumber, now, meta);
    logger.info(
      { paymentId: paid.id, userId: paid.userId, chapter: paid.chapterNumber, unlocked },
      "buy and unlock",
    );
  }
  // A gift, or the payment that starts a subscription (renewals are rows of their own, never here), puts
  // the payer on the supporters wall.
  if (paid.kind === "gift" || paid.kind === "subscription") await recordSupport(tx, paid, now);
  if (paid.membershipDays > 0)
    await tx
      .insert(membershipGrants)
      .values({ userId: paid.userId, paymentId: paid.id, days: paid.membershipDays, grantedAt: now })
      .onConflictDoNothing();
  if (paid.kind === "subscription" && effect.subscriptionId)
    await startSubscription(tx, paid, { ...effect, subscriptionId: effect.subscriptionId }, now);
  return "fulfilled" as const;
}

/** What a refund changed, for the buyer's e-mail (refund-mail.server.ts), sent once it committed. */
export type RefundChange = {
  paymentId: number;
  /** Refunded by this event, and in all so far. */
  cents: number;
  totalRefundedCents: number;
  /** Membership days taken back by this event (units whose price the refund now covers), and their count. */
  unitsRevoked: number;
  daysRevoked: number;
  tier: { from: MembershipTier; to: MembershipTier } | null;
};

/**
 * Reverses what a payment granted: coins (as far as the balance allows), membership days, its subscription.
 * Membership days follow the units paid for (ADR 57): a refund takes back the days of each unit whose price
 * it covers, counting from the order's last unit; a payment of one unit (a tier, a gift) only when refunded
 * in full. The reader's tier before and after is kept on the payment when it moved, to say why.
 */
async function reverse(
  tx: Tx,
  payment: Payment,
  status: "refunded" | "disputed",
  refundedCents: number,
  eventId: string,
  now: Date,
  meta: RequestMeta | undefined,
): Promise<{ outcome: "refunded" | "disputed" | "no-change"; change?: RefundChange }> {
  const full = status === "disputed" || refundedCents >= payment.amountCents;
  const refunded = full
    ? payment.amountCents
    : Math.min(payment.amountCents, Math.max(payment.refundedCents, refundedCents));
  // A partial refund takes back the same share of the coins, rounded up.
  const coinsDue = full ? payment.coins : Math.ceil((payment.coins * refunded) / payment.amountCents);
  const toTake = Math.max(0, coinsDue - payment.coinsReversed);
  const before = payment.userId === null ? undefined : await getMembership(payment.userId, now, tx);
  const [updated] = await tx
    .update(payments)
    .set({
      status: full ? status : payment.status,
      refundedCents: refunded,
      coinsReversed: payment.coinsReversed + toTake,
      updatedAt: now,
    })
    .where(and(eq(payments.id, payment.id), sql`${payments.status} in ('paid', 'refunded', 'disputed')`))
    .returning({ id: payments.id });
  if (!updated) return { outcome: "no-change" };
  await takeBackCoins(tx, payment, toTake, eventId, meta);
  if (full && payment.kind === "product") await orderRefunded(tx, payment.id, now);
  if (full && payment.kind === "subscription") await endSubscriptionOf(tx, payment, now);
  const units = full
    ? undefined
    : payment.kind === "product"
      ? unitsCoveredByRefund(await unitPricesOf(tx, payment.id), refunded)
      : [];
  const revoked = await tx
    .update(membershipGrants)
    .set({ revokedAt: now })
    .where(
      and(
        eq(membershipGrants.paymentId, payment.id),
        isNull(membershipGrants.revokedAt),
        units === undefined ? undefined : inArray(membershipGrants.unit, units.length ? units : [-1]),
      ),
    )
    .returning({ days: membershipGrants.days });
  const after = payment.userId === null ? undefined : await getMembership(payment.userId, now, tx);
  const tier = before && after && before.tier !== after.tier ? { from: before.tier, to: after.tier } : null;
  if (tier) await tx.update(payments).set({ refundTierChange: tier }).where(eq(payments.id, payment.id));
  return {
    outcome: status,
    change: {
      paymentId: payment.id,
      cents: refunded - payment.refundedCents,
      totalRefundedCents: refunded,
      unitsRevoked: revoked.length,
      daysRevoked: revoked.reduce((sum, grant) => sum + grant.days, 0),
      tier,
    },
  };
}

/**
 * Acts on one verified provider event, exactly once per event id: the event's row and its effect commit
 * in one transaction, and a concurrent delivery of the same id waits on that row's primary key, then finds
 * it and does nothing. Amount and currency must match the stored payment, or nothing happens at all.
 */
export async function processEvent(
  provider: ProviderName,
  event: ProviderEvent,
  now = new Date(),
  meta?: RequestMeta,
): Promise<{ outcome: EventOutcome; paymentId?: number; subscriptionId?: number; refund?: RefundChange }> {
  // The reader whose membership the event may change: their kept session is forgotten once it commits.
  let reader: number | null | undefined;
  let refund: RefundChange | undefined;
  const result = await db().transaction(async (tx) => {
    const { effect } = event;
    const payment = await findPayment(tx, provider, effect);
    reader = payment?.userId;
    if (effect.kind === "paid" && payment) {
      if (effect.amountCents !== payment.amountCents || effect.currency.toUpperCase() !== payment.currency)
        throw new PaymentMismatch(
          `payment ${payment.id}: confirmed ${effect.amountCents} ${effect.currency}, expected ${payment.amountCents} ${payment.currency}`,
        );
    }
    let sub: Subscription | undefined;
    if (
      effect.kind === "subscription" ||
      effect.kind === "invoice-failed" ||
      (effect.kind === "invoice-paid" && !payment)
    )
      sub = await lockSubscription(tx, provider, effect.subscriptionId);
    reader ??= sub?.userId;
    if (effect.kind === "invoice-paid") {
      const expected = payment?.currency ?? sub?.currency;
      if (expected && effect.currency.toUpperCase() !== expected)
        throw new PaymentMismatch(
          `invoice ${effect.invoiceId}: paid in ${effect.currency}, billed in ${expected}`,
        );
      if (payment && effect.amountCents !== payment.amountCents)
        throw new PaymentMismatch(
          `payment ${payment.id}: first invoice ${effect.amountCents}, expected ${payment.amountCents}`,
        );
      if (!Number.isInteger(effect.amountCents) || effect.amountCents <= 0)
        throw new PaymentMismatch(`invoice ${effect.invoiceId}: amount ${effect.amountCents}`);
    }
    if (effect.kind === "refunded" && payment && effect.currency.toUpperCase() !== payment.currency)
      throw new PaymentMismatch(
        `payment ${payment.id}: refund in ${effect.currency}, paid in ${payment.currency}`,
      );

    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider, eventId: event.id, type: event.type, paymentId: payment?.id, outcome: "received" })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (!recorded) return { outcome: "duplicate" as const, paymentId: payment?.id };

    let outcome: EventOutcome = "ignored";
    let paymentId = payment?.id;
    if (effect.kind === "invoice-paid" && payment) {
      // The first invoice arrived before the checkout's confirmation: it is that confirmation.
      outcome = await fulfil(
        tx,
        payment,
        { ...effect, kind: "paid", sessionId: payment.providerSessionId ?? "" },
        effect.paidAt,
        meta,
      );
    } else if (
      effect.kind === "invoice-paid" ||
      effect.kind === "invoice-failed" ||
      effect.kind === "subscription"
    ) {
      if (!sub) outcome = "unknown-payment";
      else if (effect.kind === "invoice-paid") {
        const recorded = await recordInvoice(tx, sub, effect, now);
        outcome = recorded.outcome;
        paymentId = recorded.paymentId;
      } else if (effect.kind === "invoice-failed") outcome = await recordFailedInvoice(tx, sub, effect, now);
      else outcome = await applySubscriptionState(tx, sub, effect, now);
    } else if (effect.kind !== "ignored" && !payment) {
      outcome = "unknown-payment";
    } else if (payment && effect.kind === "paid") {
      outcome = await fulfil(tx, payment, effect, now, meta);
    } else if (payment && effect.kind === "failed") {
      const [failed] = await tx
        .update(payments)
        .set({ status: "failed", updatedAt: now })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
        .returning({ id: payments.id });
      if (failed && payment.kind === "product") await cancelPendingOrder(tx, { paymentId: payment.id }, now);
      outcome = failed ? "failed" : "no-change";
    } else if (payment && effect.kind === "refunded") {
      const reversed = await reverse(tx, payment, "refunded", effect.refundedCents, event.id, now, meta);
      outcome = reversed.outcome;
      refund = reversed.change;
    } else if (payment && effect.kind === "disputed") {
      outcome = (await reverse(tx, payment, "disputed", payment.amountCents, event.id, now, meta)).outcome;
    }
    await tx
      .update(paymentEvents)
      .set({ outcome })
      .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, event.id)));
    logger.info(
      {
        event: "payment.event",
        requestId: meta?.requestId,
        ip: meta?.ip,
        provider,
        eventId: event.id,
        type: event.type,
        paymentId,
        subscriptionId: sub?.id,
        outcome,
      },
      "payment event",
    );
    return { outcome, paymentId, subscriptionId: sub?.id };
  });
  // The other instances read it from the session events (migration 0025).
  if (reader != null) forgetKeptSessions(reader);
  return refund ? { ...result, refund } : result;
}
