import type { TierKey } from "#db/schema";
import { tierRank } from "~/features/membership/tiers";

/**
 * The lifecycle rules of a support subscription that do not need the database (ADR 27): calendar months,
 * the provider's status words, a change of tier, an upgrade's prorated charge.
 */

/** One calendar month later in UTC, clamped to the month's last day (31 January -> 28/29 February). */
export function addMonths(date: Date, months = 1): Date {
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

export type LocalStatus = "active" | "past_due" | "canceled";

/** A provider's status word in our three; null for states that change nothing (incomplete, paused). */
export function localStatus(providerStatus: string): LocalStatus | null {
  if (providerStatus === "active" || providerStatus === "trialing") return "active";
  if (providerStatus === "past_due" || providerStatus === "unpaid") return "past_due";
  if (providerStatus === "canceled" || providerStatus === "incomplete_expired") return "canceled";
  return null;
}

/** An upgrade applies now; a downgrade waits for the period end. */
export function tierChange(current: TierKey, next: TierKey): "upgrade" | "downgrade" | "same" {
  const diff = tierRank(next) - tierRank(current);
  return diff > 0 ? "upgrade" : diff < 0 ? "downgrade" : "same";
}

/**
 * An upgrade's charge for the rest of the period: the difference in price times the share of the period
 * left, in cents, rounded to the nearest cent (0 when nothing is left to charge).
 */
export function proratedCents(
  fromCents: number,
  toCents: number,
  period: { start: Date; end: Date },
  now: Date,
): number {
  const length = period.end.getTime() - period.start.getTime();
  const left = Math.min(Math.max(period.end.getTime() - now.getTime(), 0), length);
  if (length <= 0 || toCents <= fromCents) return 0;
  return Math.round(((toCents - fromCents) * left) / length);
}

/** The later of two dates: a period end never moves backwards, whatever order events arrive in. */
export function later(a: Date, b: Date | null | undefined): Date {
  return b && b.getTime() > a.getTime() ? b : a;
}
