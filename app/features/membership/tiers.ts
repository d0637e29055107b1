import type { TierKey } from "#db/schema";

export type MembershipTier = "free" | TierKey;

/** Membership granted by a purchase's membership days (DESIGN.md 3): 30+ observer, 90+ analyst, 180+ first_human. */
export function tierForMembershipDays(days: number): MembershipTier {
  if (days >= 180) return "first_human";
  if (days >= 90) return "analyst";
  if (days >= 30) return "observer";
  return "free";
}
