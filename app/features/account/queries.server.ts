import { and, asc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { oauthIdentities } from "#db/schema";
import { listConfiguredProviders } from "~/features/auth/oauth-providers.server";

export type LinkedIdentity = { provider: string; displayName: string | null; username: string | null };

/** The social identities linked to an account, with the names they had at the last sign-in. */
export function getLinkedIdentities(userId: number): Promise<LinkedIdentity[]> {
  return db()
    .select({
      provider: oauthIdentities.provider,
      displayName: oauthIdentities.displayName,
      username: oauthIdentities.username,
    })
    .from(oauthIdentities)
    .where(eq(oauthIdentities.userId, userId))
    .orderBy(asc(oauthIdentities.provider), asc(oauthIdentities.id));
}

/**
 * What the dashboard shows of Discord: the linked account's username, `{ username: null }` when Discord is
 * configured but not linked (a link to /settings), undefined when the site has no Discord sign-in.
 */
export async function getDiscord(userId: number): Promise<{ username: string | null } | undefined> {
  if (!listConfiguredProviders().includes("discord")) return undefined;
  const [identity] = await db()
    .select({ username: oauthIdentities.username, displayName: oauthIdentities.displayName })
    .from(oauthIdentities)
    .where(and(eq(oauthIdentities.userId, userId), eq(oauthIdentities.provider, "discord")))
    .limit(1);
  return { username: identity ? (identity.username ?? identity.displayName) : null };
}
