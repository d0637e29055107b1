import { holdsPerk } from "~/features/membership/perks";
import type { MembershipTier } from "~/features/membership/tiers";

/**
 * The role a reader of `tier` should have: their own tier's role while the tier holds the perk (the one
 * rule of perks.ts), else none. One role at a time, like Patreon's: a change of tier swaps it.
 */
export function desiredRole(
  tier: MembershipTier,
  roles: Partial<Record<MembershipTier, string | undefined>>,
): string | null {
  if (!holdsPerk(tier, "discord_role")) return null;
  return roles[tier] ?? null;
}

export type RoleChange = { remove: string | null; add: string | null };

/** What to ask of Discord to go from the role applied to the role desired (nothing when they agree). */
export function roleChange(applied: string | null, desired: string | null): RoleChange {
  if (applied === desired) return { remove: null, add: null };
  return { remove: applied, add: desired };
}
