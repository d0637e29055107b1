import { getEnv } from "~/lib/env.server";

export const providerIds = ["discord", "google"] as const;
export type ProviderId = (typeof providerIds)[number];

export type OAuthProvider = {
  id: ProviderId;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
};

/** A provider counts as configured when its client id and secret are set; its endpoints can be overridden (tests). */
export function getProvider(id: ProviderId): OAuthProvider | undefined {
  const env = getEnv();
  if (id === "discord" && env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET) {
    return {
      id,
      clientId: env.DISCORD_CLIENT_ID,
      clientSecret: env.DISCORD_CLIENT_SECRET,
      authorizeUrl: env.DISCORD_AUTHORIZE_URL,
      tokenUrl: env.DISCORD_TOKEN_URL,
      userinfoUrl: env.DISCORD_USERINFO_URL,
      scope: "identify email",
    };
  }
  if (id === "google" && env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    return {
      id,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      authorizeUrl: env.GOOGLE_AUTHORIZE_URL,
      tokenUrl: env.GOOGLE_TOKEN_URL,
      userinfoUrl: env.GOOGLE_USERINFO_URL,
      scope: "openid email profile",
    };
  }
  return undefined;
}

/** The providers whose buttons are shown. */
export function listConfiguredProviders(): ProviderId[] {
  return providerIds.filter((id) => getProvider(id) !== undefined);
}
