import { CodeChallengeMethod, OAuth2Client } from "arctic";
import { and, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { discordLinks, oauthRequests } from "#db/schema";
import { storeRequest, withTimeout } from "~/features/auth/oauth.server";
import { getMembership } from "~/features/membership/queries.server";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { hashToken } from "~/lib/tokens.server";
import { currentUser, joinGuild, setRole } from "./api.server";
import { type DiscordConfig, discordConfig } from "./config.server";
import type { LinkOutcome } from "./outcomes";
import { desiredRole } from "./roles";
import { applyClaimed, type ClaimedLink, claimLink, LEASE_MS, releaseLink } from "./sync.server";

/**
 * Linking a Discord account for the role perk (ADR 84): the OAuth 2 code flow with state and PKCE S256, as
 * social sign-in does (ADR 6), with the scopes `identify guilds.join`. It is its own flow, not a sign-in: the
 * request rows share oauth_requests under their own provider name, so neither callback takes the other's.
 */

/** The provider name of a link in flight in oauth_requests (sign-in's are "discord" and "google"). */
export const LINK_PROVIDER = "discord-role";
const SCOPES = ["identify", "guilds.join"];

const EXCHANGE_TIMEOUT_MS = 10_000;

export const callbackPath = "/settings/discord/callback";

const oauthClient = (config: DiscordConfig) =>
  new OAuth2Client(config.clientId, config.clientSecret, `${getEnv().origin}${callbackPath}`);

/** Stores the single-use request (state hashed, PKCE verifier, who links) and returns the authorize URL. */
export async function startLink(config: DiscordConfig, userId: number): Promise<string> {
  const { state, verifier } = await storeRequest({
    provider: LINK_PROVIDER,
    redirectTo: "/settings#discord",
    linkUserId: userId,
  });
  return oauthClient(config)
    .createAuthorizationURLWithPKCE(config.authorizeUrl, state, CodeChallengeMethod.S256, verifier, SCOPES)
    .toString();
}

/** Consumes the request of `state` (once: DELETE … RETURNING) if it is this reader's and still valid. */
async function takeRequest(userId: number, state: string) {
  const [request] = await db()
    .delete(oauthRequests)
    .where(and(eq(oauthRequests.stateHash, hashToken(state)), eq(oauthRequests.provider, LINK_PROVIDER)))
    .returning();
  if (!request || request.linkUserId !== userId || request.expiresAt.getTime() <= Date.now())
    return undefined;
  return request;
}

async function exchangeCode(config: DiscordConfig, code: string, verifier: string) {
  // arctic's request takes no abort signal: past the timeout the link fails at once (as sign-in's does).
  const tokens = await withTimeout(
    oauthClient(config).validateAuthorizationCode(config.tokenUrl, code, verifier),
    EXCHANGE_TIMEOUT_MS,
  );
  const accessToken = tokens.accessToken();
  if (!accessToken || tokens.tokenType().toLowerCase() !== "bearer") throw new Error("no bearer token");
  return accessToken;
}

/** Inserts the link already claimed by this sync; which constraint refused it when one does. */
async function insertLink(userId: number, account: { id: string; username: string }, now: Date) {
  try {
    const [row] = await db()
      .insert(discordLinks)
      .values({
        userId,
        discordUserId: account.id,
        discordUsername: account.username.slice(0, 100),
        leaseUntil: new Date(now.getTime() + LEASE_MS),
      })
      .onConflictDoNothing({ target: discordLinks.userId })
      .returning({ userId: discordLinks.userId });
    return row ? "inserted" : "busy";
  } catch (error) {
    if (violatedUniqueConstraint(error) === "discord_links_discord_user_id") return "taken";
    throw error;
  }
}

/**
 * The callback: consumes the request, exchanges the code (PKCE), reads who authorized, stores the link and
 * has the bot add them to the guild with their tier's role. Failures are outcomes, never exceptions.
 */
export async function completeLink(
  userId: number,
  input: { code?: string; state?: string; error?: string; browserState: string },
): Promise<LinkOutcome> {
  const config = discordConfig();
  if (!config || !input.state) return "invalid";
  const request = await takeRequest(userId, input.state);
  if (!request || input.browserState !== input.state) return "invalid";
  if (input.error) return "denied";
  if (!input.code) return "invalid";

  let accessToken: string;
  let account: { id: string; username: string };
  try {
    accessToken = await exchangeCode(config, input.code, request.codeVerifier);
    account = await currentUser(config, accessToken);
  } catch (error) {
    logger.warn(
      { event: "discord.link-failed", userId, err: String(error).slice(0, 200) },
      "Discord link failed",
    );
    return "failed";
  }

  // A reader linking another account lets the old one go first (its role taken back).
  const [existing] = await db().select().from(discordLinks).where(eq(discordLinks.userId, userId));
  if (existing && existing.discordUserId !== account.id && (await unlink(userId)) === "busy") return "busy";
  const now = new Date();
  let claimed: ClaimedLink | undefined;
  if (existing?.discordUserId === account.id) claimed = await claimLink(userId, now);
  else {
    const inserted = await insertLink(userId, account, now);
    if (inserted !== "inserted") return inserted;
    claimed = { userId, discordUserId: account.id, appliedRoleId: null, inGuild: false, syncedAt: null };
  }
  if (!claimed) return "busy";
  return (await joinWithRole(config, claimed, accessToken, now)) ? "linked" : "joinFailed";
}

/** Adds the member with the tier's role (or gives the role to one already in); false when Discord refused. */
async function joinWithRole(
  config: DiscordConfig,
  claimed: ClaimedLink,
  accessToken: string,
  now: Date,
): Promise<boolean> {
  const { userId, discordUserId } = claimed;
  const role = desiredRole((await getMembership(userId, now)).tier, config.roles);
  try {
    const joined = await joinGuild(config, discordUserId, accessToken, role);
    // A member already in the guild keeps their roles through that call: the sync gives the role.
    if (joined === "member") return (await applyClaimed(config, claimed, now, { joined: true })) !== "failed";
    await releaseLink(claimed, { applied: role, inGuild: true, error: null, now });
    return true;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    logger.warn({ event: "discord.join-failed", userId, err: message }, "Discord guild join failed");
    await releaseLink(claimed, { applied: null, inGuild: false, error: message, now });
    return false;
  }
}

/**
 * Unlinks: takes the role back on Discord (best effort: a failure is logged, the link goes anyway, since
 * the reader asked) and forgets the link. "busy" while a sync holds it.
 */
export async function unlink(userId: number): Promise<"done" | "notLinked" | "busy"> {
  const [exists] = await db()
    .select({ userId: discordLinks.userId })
    .from(discordLinks)
    .where(eq(discordLinks.userId, userId));
  if (!exists) return "notLinked";
  const link = await claimLink(userId);
  if (!link) return "busy";
  const config = discordConfig();
  if (config && link.appliedRoleId) {
    await setRole(config, link.discordUserId, link.appliedRoleId, false).catch((error: unknown) =>
      logger.warn(
        { event: "discord.unlink-role-failed", userId, err: String(error).slice(0, 200) },
        "role not taken back",
      ),
    );
  }
  await db().delete(discordLinks).where(eq(discordLinks.userId, userId));
  return "done";
}
