import { type MembershipTier, tierRank } from "./tiers";

/**
 * The perks the support tiers name (docs/product-rules.md "Membership tiers"). One rule for all of them:
 * a reader holds a tier's perks while they hold that tier, whichever way they got it (a support
 * subscription, total spent, merchandise days), and each higher tier holds the lower tiers' perks.
 */
export const perks = [
  "early_access",
  "discord_role",
  "monthly_qa",
  "art_votes",
  "credits",
  "beta_reading",
] as const;

export type Perk = (typeof perks)[number];

/** The lowest tier that holds each perk. */
export const perkTier: Record<Perk, Exclude<MembershipTier, "free">> = {
  early_access: "observer",
  discord_role: "observer",
  monthly_qa: "analyst",
  art_votes: "analyst",
  credits: "first_human",
  beta_reading: "first_human",
};

/** Where each perk lives on the site, for the tier cards, the dashboard and the welcome e-mail. */
export const perkPath: Record<Perk, string> = {
  early_access: "/toc",
  discord_role: "/settings#discord",
  monthly_qa: "/qa",
  art_votes: "/polls",
  credits: "/credits",
  beta_reading: "/beta",
};

export function holdsPerk(tier: MembershipTier, perk: Perk): boolean {
  return tierRank(tier) >= tierRank(perkTier[perk]);
}

/** The perks a tier holds, its own and the lower tiers', in the order the tier cards list them. */
export function perksOf(tier: MembershipTier): Perk[] {
  return perks.filter((perk) => holdsPerk(tier, perk));
}

/** The perks a tier adds to the tier below it (its card's own lines; "all previous perks" covers the rest). */
export function perksAddedBy(tier: MembershipTier): Perk[] {
  return perks.filter((perk) => perkTier[perk] === tier);
}

/** What decides where the Discord role is found: synced from /settings, or only the community invite. */
export type PerkPlaces = { discordRoleSynced: boolean; communityUrl: string | null };

export type PerkLink = { perk: Perk; href: string; external: boolean };

/**
 * Where each perk is found. The Discord role lives on /settings when the site syncs roles; when it does not,
 * nothing about Discord shows but the community invite, and without one the perk has no link.
 */
export function perkLinks(list: Perk[], places: PerkPlaces): PerkLink[] {
  return list.flatMap((perk): PerkLink[] => {
    if (perk !== "discord_role" || places.discordRoleSynced)
      return [{ perk, href: perkPath[perk], external: false }];
    return places.communityUrl ? [{ perk, href: places.communityUrl, external: true }] : [];
  });
}
