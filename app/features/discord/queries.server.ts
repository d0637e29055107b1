import { eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { discordLinks } from "#db/schema";
import { getMembership } from "~/features/membership/queries.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { discordConfig } from "./config.server";
import { desiredRole } from "./roles";

export type DiscordSectionData = {
  /** The site's community invite (site settings), shown whether or not the role perk is on. */
  invite: { label: string; url: string } | null;
  /** Undefined when the perk is not configured: only the invite shows. */
  perk?: {
    /** Whether the reader's tier gives a role now. */
    tierHasRole: boolean;
    link: {
      username: string;
      inGuild: boolean;
      /** The role the tier gives is not (yet) the one applied: the reconcile job is on it. */
      pending: boolean;
    } | null;
  };
};

/** What /settings#discord shows the reader. */
export async function getDiscordSection(userId: number): Promise<DiscordSectionData> {
  const site = await getSiteSettings();
  const invite = site.communityUrl ? { label: site.communityLabel, url: site.communityUrl } : null;
  const config = discordConfig();
  if (!config) return { invite };
  const [[link], membership] = await Promise.all([
    db().select().from(discordLinks).where(eq(discordLinks.userId, userId)),
    getMembership(userId),
  ]);
  const desired = desiredRole(membership.tier, config.roles);
  return {
    invite,
    perk: {
      tierHasRole: desired !== null,
      link: link
        ? { username: link.discordUsername, inGuild: link.inGuild, pending: link.appliedRoleId !== desired }
        : null,
    },
  };
}
