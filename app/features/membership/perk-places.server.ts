import { getSiteSettings } from "~/features/site/queries.server";
import type { PerkPlaces } from "./perks";

/** Where the perks are found on this site: whether Discord roles are synced, and the community invite. */
export async function perkPlaces(): Promise<PerkPlaces> {
  const site = await getSiteSettings();
  // Discord roles are synced only once a bot is configured; until then the invite is the way in.
  return { discordRoleSynced: false, communityUrl: site.communityUrl || null };
}
