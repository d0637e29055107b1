import type { MembershipTier } from "~/features/membership/tiers";
import { getEnv } from "~/lib/env.server";

/** The paid tiers, each of which may name its Discord role. */
export type PaidTier = Exclude<MembershipTier, "free">;

export type DiscordConfig = {
  botToken: string;
  guildId: string;
  apiUrl: string;
  /** The OAuth client the reader authorizes (the one Discord sign-in uses, ADR 6). */
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** The role each tier gives; a tier without one gives none. */
  roles: Record<PaidTier, string | undefined>;
};

/**
 * The Discord role perk is on when the bot (token, guild) and the OAuth client (id, secret) are all set
 * (ADR 84); otherwise undefined, and nothing about it shows.
 */
export function discordConfig(): DiscordConfig | undefined {
  const env = getEnv();
  if (!env.DISCORD_BOT_TOKEN || !env.DISCORD_GUILD_ID) return undefined;
  if (!env.DISCORD_CLIENT_ID || !env.DISCORD_CLIENT_SECRET) return undefined;
  return {
    botToken: env.DISCORD_BOT_TOKEN,
    guildId: env.DISCORD_GUILD_ID,
    apiUrl: env.DISCORD_API_URL.replace(/\/$/, ""),
    clientId: env.DISCORD_CLIENT_ID,
    clientSecret: env.DISCORD_CLIENT_SECRET,
    authorizeUrl: env.DISCORD_AUTHORIZE_URL,
    tokenUrl: env.DISCORD_TOKEN_URL,
    roles: {
      observer: env.DISCORD_ROLE_OBSERVER,
      analyst: env.DISCORD_ROLE_ANALYST,
      first_human: env.DISCORD_ROLE_FIRST_HUMAN,
    },
  };
}
