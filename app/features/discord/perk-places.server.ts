import type { PerkPlaces } from "~/features/membership/perks";
import { getSiteSettings } from "~/features/site/queries.server";
import { discordConfig } from "./config.server";

/**
 * Where the perks are found on this site: the Discord role on /settings when roles are synced (a bot
 * configured, ADR 84), else only the community invite.
 */
export async function perkPlaces(): Promise<PerkPlaces> {
  const site = await getSiteSettings();
  return { discordRoleSynced: discordConfig() !== undefined, communityUrl: site.communityUrl || null };
}
