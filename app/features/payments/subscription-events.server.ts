import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { payments, subscriptions, supportTiers, type TierKey, tierKeys } from "#db/schema";
import { graceEnd } from "~/features/membership/subscription-access";
import type {
  InvoiceFailedEffect,
  InvoicePaidEffect,
  ProviderName,
  SubscriptionEffect,
} from "./provider.server";
import { addMonths, later, localStatus, tierChange } from "./subscription-rules";

/**
 * A support subscription's events inside the event's transaction (fulfil.server.ts, ADR 27). Every paid
 * invoice is one `payments` row (kind subscription, paid at the provider's time), unique by the provider's
 * invoice id; state events never move the period end backwards, and one older than the newest applied
 * changes no status, cancel or tier.
 */
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Subscription = typeof subscriptions.$inferSelect;
type Payment = typeof payments.$inferSelect;

const isTierKey = (value: unknown): value is TierKey => tierKeys.includes(value as TierKey);

/** The subscription, locked: its events take turns. */
export async function lockSubscription(
  tx: Tx,
  provider: ProviderName,
  providerSubscriptionId: string,
): Promise<Subscription | undefined> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    )
    .for("update");
  return row;
}

/** A subscription checkout still waiting for its first invoice, by our id in the provider's metadata. */
export async function lockPendingCheckout(
  tx: Tx,
  provider: ProviderName,
  paymentId: number,
): Promise<Payment | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.provider, provider),
        eq(payments.kind, "subscription"),
        eq(payments.status, "pending"),
      ),
    )
    .for("update");
  return row;
}

/**
 * The checkout's payment is paid: its subscription starts (once: a second confirmation finds it), for the
 * period the first invoice pays, a calendar month when the provider does not say.
 */
export async function startSubscription(
  tx: Tx,
  paid: Payment & { userId: number },
  start: { subscriptionId: string; invoiceId?: string | null; periodEnd?: Date | null },
  now: Date,
): Promise<void> {
  if (!paid.tierKey) return;
  const [created] = await tx
    .insert(subscriptions)
    .values({
      userId: paid.userId,
      provider: paid.provider,
      providerSubscriptionId: start.subscriptionId,
      paymentId: paid.id,
      tierKey: paid.tierKey,
      status: "active",
      amountCents: paid.amountCents,
      currency: paid.currency,
      currentPeriodEnd: start.periodEnd ?? addMonths(now),
      startedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: subscriptions.id });
  const [sub] = created
    ? [created]
    : await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.provider, paid.provider),
            eq(subscriptions.providerSubscriptionId, start.subscriptionId),
          ),
        );
  await tx
    .update(payments)
    .set({ subscriptionId: sub?.id ?? null, providerInvoiceId: start.invoiceId ?? paid.providerInvoiceId })
    .where(eq(payments.id, paid.id));
}

async function tierName(tx: Tx, key: TierKey): Promise<string> {
  const [tier] = await tx
    .select({ name: supportTiers.name })
    .from(supportTiers)
    .where(eq(supportTiers.key, key));
  return tier?.name ?? key;
}

/**
 * A paid invoice of a known subscription: one paid row per invoice id (a redelivery, or Stripe's
 * invoice.paid and invoice.payment_succeeded for one invoice, find it and add nothing). A renewal moves the
 * period on, ends any grace and applies a downgrade that waited for it.
 */
export async function recordInvoice(
  tx: Tx,
  sub: Subscription,
  effect: InvoicePaidEffect,
  now: Date,
): Promise<{ outcome: "invoice" | "no-change"; paymentId?: number }> {
  // The first invoice, when the checkout's confirmation did not name it: it is the checkout's payment.
  if (effect.reason === "create" && sub.paymentId !== null) {
    const [first] = await tx
      .update(payments)
      .set({
        providerInvoiceId: effect.invoiceId,
        ...(effect.providerPaymentId && { providerPaymentId: effect.providerPaymentId }),
        updatedAt: now,
      })
      .where(and(eq(payments.id, sub.paymentId), isNull(payments.providerInvoiceId)))
      .returning({ id: payments.id });
    if (first) {
      await extendPeriod(tx, sub, effect.periodEnd, now);
      return { outcome: "no-change" };
    }
  }
  const billedTier = effect.reason === "cycle" && sub.pendingTierKey ? sub.pendingTierKey : sub.tierKey;
  const name = await tierName(tx, billedTier);
  const [row] = await tx
    .insert(payments)
    .values({
      userId: sub.userId,
      kind: "subscription",
      provider: sub.provider,
      providerPaymentId: effect.providerPaymentId,
      status: "paid",
      amountCents: effect.amountCents,
      currency: effect.currency.toUpperCase(),
      description: effect.reason === "update" ? `${name} (upgrade)` : `${name} (monthly)`,
      tierKey: billedTier,
      subscriptionId: sub.id,
      providerInvoiceId: effect.invoiceId,
      paidAt: effect.paidAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  if (!row) {
    // Already recorded (often the checkout's own first invoice): learn the money movement's id, which a
    // refund names, when the checkout did not carry it.
    if (effect.providerPaymentId)
      await tx
        .update(payments)
        .set({ providerPaymentId: effect.providerPaymentId, updatedAt: now })
        .where(
          and(
            eq(payments.provider, sub.provider),
            eq(payments.providerInvoiceId, effect.invoiceId),
            sql`(${payments.providerPaymentId} is null or ${payments.providerPaymentId} = ${effect.invoiceId})`,
          ),
        );
    await extendPeriod(tx, sub, effect.periodEnd, now);
    return { outcome: "no-change" };
  }
  const ended = sub.status === "canceled" || sub.endedAt !== null;
  const newPeriod = effect.periodEnd !== null && effect.periodEnd.getTime() > sub.currentPeriodEnd.getTime();
  await tx
    .update(subscriptions)
    .set({
      currentPeriodEnd: later(sub.currentPeriodEnd, effect.periodEnd),
      updatedAt: now,
      ...(!ended &&
        newPeriod && {
          status: "active",
          graceUntil: null,
          ...(effect.reason === "cycle" && {
            tierKey: billedTier,
            pendingTierKey: null,
            amountCents: effect.amountCents,
          }),
        }),
    })
    .where(eq(subscriptions.id, sub.id));
  return { outcome: "invoice", paymentId: row.id };
}

async function extendPeriod(tx: Tx, sub: Subscription, periodEnd: Date | null, now: Date) {
  if (!periodEnd || periodEnd.getTime() <= sub.currentPeriodEnd.getTime()) return;
  await tx
    .update(subscriptions)
    .set({ currentPeriodEnd: periodEnd, updatedAt: now })
    .where(eq(subscriptions.id, sub.id));
}

/**
 * A renewal could not be charged: past_due with 3 days' grace from the renewal date, unless a later
 * invoice already paid past it (a late failure changes nothing) or it has ended. A retry that fails again
 * does not lengthen the grace.
 */
export async function recordFailedInvoice(
  tx: Tx,
  sub: Subscription,
  effect: InvoiceFailedEffect,
  now: Date,
): Promise<"renewal-failed" | "no-change"> {
  if (sub.status === "canceled" || sub.endedAt) return "no-change";
  const due = effect.periodStart ?? sub.currentPeriodEnd;
  if (sub.currentPeriodEnd.getTime() > due.getTime()) return "no-change";
  if (sub.status === "past_due" && sub.graceUntil) return "no-change";
  await tx
    .update(subscriptions)
    .set({ status: "past_due", graceUntil: graceEnd(due), updatedAt: now })
    .where(eq(subscriptions.id, sub.id));
  return "renewal-failed";
}

/**
 * The provider's state of the subscription. The period end only moves forward; status, cancel and tier
 * follow only an event at least as new as the newest applied, but its end applies whenever it arrives and
 * is final. A higher tier applies
 * now; a lower one waits as `pendingTierKey` for the next renewal.
 */
export async function applySubscriptionState(
  tx: Tx,
  sub: Subscription,
  effect: SubscriptionEffect,
  now: Date,
): Promise<"subscription" | "no-change"> {
  const at = effect.at ?? now;
  // The end of a subscription is final at the provider: it applies even when it arrives out of order.
  const stale =
    sub.lastEventAt !== null &&
    at.getTime() < sub.lastEventAt.getTime() &&
    localStatus(effect.status) !== "canceled";
  const ended = sub.status === "canceled" || sub.endedAt !== null;
  const periodEnd = later(sub.currentPeriodEnd, effect.currentPeriodEnd);
  if (stale || ended) {
    await extendPeriod(tx, sub, effect.currentPeriodEnd, now);
    return "no-change";
  }
  const status = localStatus(effect.status) ?? sub.status;
  const change: Partial<Subscription> = {};
  if (isTierKey(effect.tierKey)) {
    const kind = tierChange(sub.tierKey, effect.tierKey);
    if (kind === "upgrade") {
      change.tierKey = effect.tierKey;
      change.pendingTierKey = null;
      if (effect.amountCents) change.amountCents = effect.amountCents;
    } else if (kind === "downgrade") change.pendingTierKey = effect.tierKey;
    else change.pendingTierKey = null;
  }
  await tx
    .update(subscriptions)
    .set({
      ...change,
      status,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: effect.cancelAtPeriodEnd ?? sub.cancelAtPeriodEnd,
      graceUntil:
        status === "past_due"
          ? (sub.graceUntil ?? graceEnd(sub.currentPeriodEnd))
          : status === "active"
            ? null
            : sub.graceUntil,
      endedAt: status === "canceled" ? at : null,
      lastEventAt: later(at, sub.lastEventAt),
      updatedAt: now,
    })
    .where(eq(subscriptions.id, sub.id));
  return "subscription";
}

/** A refund or dispute of any of its invoices ends the subscription now. */
export async function endSubscriptionOf(tx: Tx, payment: Payment, now: Date): Promise<void> {
  const where = payment.subscriptionId
    ? eq(subscriptions.id, payment.subscriptionId)
    : eq(subscriptions.paymentId, payment.id);
  await tx
    .update(subscriptions)
    .set({
      status: "canceled",
      endedAt: sql`coalesce(${subscriptions.endedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(where);
}
