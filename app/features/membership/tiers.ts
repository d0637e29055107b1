import type { TierKey } from "#db/schema";

export type MembershipTier = "free" | TierKey;

/** Lowest to highest. */
export const tierOrder: readonly MembershipTier[] = ["free", "observer", "analyst", "first_human"];

export function tierRank(tier: MembershipTier): number {
  return tierOrder.indexOf(tier);
}

/** Membership granted by a purchase's membership days (docs/product-rules.md "Membership tiers"): 30+ observer, 90+ analyst, 180+ first_human. */
export function tierForMembershipDays(days: number): MembershipTier {
  if (days >= 180) return "first_human";
  if (days >= 90) return "analyst";
  if (days >= 30) return "observer";
  return "free";
}

/** Tier from total spent, in cents (docs/product-rules.md "Membership tiers"): below $20 free, $20 observer, $50 analyst, $100 first_human. */
export function tierForSpend(totalSpentCents: number): MembershipTier {
  if (totalSpentCents >= 100_00) return "first_human";
  if (totalSpentCents >= 50_00) return "analyst";
  if (totalSpentCents >= 20_00) return "observer";
  return "free";
}

export type Grant = { days: number; grantedAt: Date };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Membership days from purchases (docs/product-rules.md "Membership tiers"), stacked: for each tier, the grants of that tier or higher
 * run one after another (a grant bought while covered starts when the cover ends, so stacking extends the
 * end date). The result is the highest tier covering `now` and when that cover ends.
 */
export function tierFromGrants(grants: Grant[], now: Date): { tier: MembershipTier; until: Date | null } {
  const sorted = grants
    .filter((grant) => grant.grantedAt.getTime() <= now.getTime())
    .sort((a, b) => a.grantedAt.getTime() - b.grantedAt.getTime());
  for (const tier of [...tierOrder].reverse()) {
    if (tier === "free") break;
    let end = 0;
    for (const grant of sorted) {
      if (tierRank(tierForMembershipDays(grant.days)) < tierRank(tier)) continue;
      end = Math.max(end, grant.grantedAt.getTime()) + grant.days * DAY_MS;
    }
    if (end > now.getTime()) return { tier, until: new Date(end) };
  }
  return { tier: "free", until: null };
}
