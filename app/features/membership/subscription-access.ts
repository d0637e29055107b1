/**
 * When a support subscription stops granting its tier (docs/product-rules.md "Support subscriptions").
 * Decided from dates, so a tier ends on time even when the provider's last event never arrives.
 */
export const GRACE_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export type SubscriptionState = {
  status: string;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  graceUntil: Date | null;
  endedAt: Date | null;
};

export const graceEnd = (from: Date) => new Date(from.getTime() + GRACE_DAYS * DAY_MS);

/**
 * The end of the access a subscription gives, or null when it gives none:
 * - active: to the period end; a renewal not confirmed by then keeps the tier for the grace days, as a
 *   failed one does (a cancelled subscription ends exactly at its period end);
 * - past_due (a renewal failed): to `graceUntil` (period end + 3 days);
 * - canceled: to the earlier of the period end and the moment it ended (a refund ends it at once).
 */
export function subscriptionAccessEnd(sub: SubscriptionState): Date | null {
  const periodEnd = sub.currentPeriodEnd;
  if (sub.status === "canceled" || sub.endedAt) {
    const ended = sub.endedAt ?? periodEnd;
    return ended.getTime() < periodEnd.getTime() ? ended : periodEnd;
  }
  if (sub.status === "past_due") return sub.graceUntil ?? graceEnd(periodEnd);
  if (sub.status === "active" || sub.status === "trialing")
    return sub.cancelAtPeriodEnd ? periodEnd : graceEnd(periodEnd);
  return null;
}

/**
 * Until when the account says the tier runs: the paid period's end while it runs (the renewal's grace is
 * an allowance, not a promise), else the end of the grace or of the access.
 */
export function paidUntil(sub: SubscriptionState, now: Date): Date | null {
  const end = subscriptionAccessEnd(sub);
  if ((sub.status === "active" || sub.status === "trialing") && !sub.endedAt)
    return sub.currentPeriodEnd.getTime() > now.getTime() ? sub.currentPeriodEnd : end;
  return end;
}

/** Whether the subscription grants its tier at `now`. */
export function grantsTier(sub: SubscriptionState, now: Date): boolean {
  const end = subscriptionAccessEnd(sub);
  return end !== null && end.getTime() > now.getTime();
}

export type SubscriptionPhase = "active" | "ending" | "renewing" | "grace" | "ended";

/**
 * How the account describes it: renewing on a date (active), ending on a date (cancelled), a renewal
 * overdue (renewing, within the grace days), a failed renewal (grace), or ended.
 */
export function subscriptionPhase(sub: SubscriptionState, now: Date): SubscriptionPhase {
  if (!grantsTier(sub, now)) return "ended";
  if (sub.status === "past_due") return "grace";
  if (sub.cancelAtPeriodEnd) return "ending";
  return sub.currentPeriodEnd.getTime() > now.getTime() ? "active" : "renewing";
}
