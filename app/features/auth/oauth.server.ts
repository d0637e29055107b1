import crypto from "node:crypto";
import { CodeChallengeMethod, generateCodeVerifier, OAuth2Client } from "arctic";
import { and, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { db } from "#db/client.server";
import { oauthIdentities, oauthRequests, users } from "#db/schema";
import type { Language } from "~/i18n/config";
import type { RequestMeta } from "~/lib/context";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { readCookies } from "~/lib/preferences.server";
import { safeRedirectPath } from "~/lib/redirect";
import { hashToken, randomToken } from "~/lib/tokens.server";
import { createAccount, FieldError, isSuspended } from "./commands.server";
import { getProvider, type OAuthProvider, type ProviderId, providerIds } from "./oauth-providers.server";
import { usernameSchema } from "./schemas";

/**
 * Social sign-in: OAuth 2 authorization code flow with state and PKCE S256 (docs/security-model.md S6; ADR 6).
 * A provider identity is keyed on (provider, subject) only: an e-mail address never joins an identity to an
 * existing account, because whoever controls the provider account would otherwise take over that account.
 */

const REQUEST_VALID_MS = 10 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;
const USERNAME_MAX = 30;

export type OAuthErrorCode =
  | "invalidState"
  | "denied"
  | "exchangeFailed"
  | "profileFailed"
  | "emailUnverified"
  | "emailInUse"
  | "identityTaken"
  | "suspended";

/** A failed sign-in: a stable code, its catalogue key (`oauth.errors.*`, takes {{provider}}) and an HTTP status. */
export type OAuthError = {
  code: OAuthErrorCode;
  messageKey: `oauth.errors.${OAuthErrorCode}`;
  status: number;
};

export type OAuthResult =
  | {
      ok: true;
      /** signedIn: a known identity; created: a new account; linked: attached to the reader who started it. */
      outcome: "signedIn" | "created" | "linked";
      userId: number;
      provider: ProviderId;
      redirectTo: string;
    }
  | { ok: false; provider: ProviderId; error: OAuthError };

const statuses: Record<OAuthErrorCode, number> = {
  invalidState: 400,
  denied: 403,
  exchangeFailed: 502,
  profileFailed: 502,
  emailUnverified: 403,
  emailInUse: 409,
  identityTaken: 409,
  suspended: 403,
};

function oauthError(code: OAuthErrorCode): OAuthError {
  return { code, messageKey: `oauth.errors.${code}`, status: statuses[code] };
}

/** Who made the request, for the log lines (never tokens). */

/** The configured provider a URL segment names, or undefined (unknown or not configured: a 404). */
export function configuredProvider(value: string | undefined): OAuthProvider | undefined {
  const id = providerIds.find((candidate) => candidate === value);
  return id ? getProvider(id) : undefined;
}

export function redirectUri(provider: ProviderId): string {
  // From the configured origin, never the Host header: the provider compares it with the registered one.
  return `${getEnv().origin}/auth/${provider}/callback`;
}

/** The protocol side (authorize URL with PKCE S256, code exchange with HTTP Basic client credentials): arctic. */
const oauthClient = (provider: OAuthProvider) =>
  new OAuth2Client(provider.clientId, provider.clientSecret, redirectUri(provider.id));

/**
 * Stores a single-use OAuth request (its state hashed, a fresh PKCE verifier) after clearing expired ones, and
 * returns the state and verifier for the authorize URL. Also the Discord role link's (features/discord).
 */
export async function storeRequest(request: {
  provider: string;
  redirectTo: string;
  linkUserId: number | null;
}): Promise<{ state: string; verifier: string }> {
  const state = randomToken();
  // 32 random bytes: 43 base64url characters, inside RFC 7636's 43-128.
  const verifier = generateCodeVerifier();
  await db().delete(oauthRequests).where(lt(oauthRequests.expiresAt, sql`now()`));
  await db()
    .insert(oauthRequests)
    .values({
      stateHash: hashToken(state),
      codeVerifier: verifier,
      expiresAt: new Date(Date.now() + REQUEST_VALID_MS),
      ...request,
    });
  return { state, verifier };
}

/**
 * Stores a single-use sign-in request (state hashed, PKCE verifier, where to go after, who links) and returns
 * the provider's authorize URL to send the browser to.
 */
export async function startAuthorization(
  providerId: ProviderId,
  { redirectTo, linkUserId }: { redirectTo?: string | null; linkUserId?: number },
): Promise<string> {
  const provider = getProvider(providerId);
  if (!provider) throw new Error(`OAuth provider ${providerId} is not configured`);
  const { state, verifier } = await storeRequest({
    provider: providerId,
    redirectTo: safeRedirectPath(redirectTo, "/account"),
    linkUserId: linkUserId ?? null,
  });
  return oauthClient(provider)
    .createAuthorizationURLWithPKCE(
      provider.authorizeUrl,
      state,
      CodeChallengeMethod.S256,
      verifier,
      provider.scope.split(" "),
    )
    .toString();
}

/** The profile fields we use, whatever the provider calls them. */
export type ProviderProfile = {
  subject: string;
  displayName: string | null;
  /** The provider's handle (Discord's `username`); null where there is none (Google). */
  username: string | null;
  /** Only a verified address; undefined otherwise. */
  email: string | undefined;
  usernameCandidates: (string | null | undefined)[];
};

const emailSchema = z.email().max(254);
const verifiedEmail = (email: string | null | undefined, verified: boolean) =>
  verified && email && emailSchema.safeParse(email).success ? email : undefined;

const discordUser = z.object({
  id: z.string().min(1),
  username: z.string(),
  global_name: z.string().nullish(),
  email: z.string().nullish(),
  verified: z.boolean().nullish(),
});
const googleUser = z.object({
  sub: z.string().min(1),
  name: z.string().nullish(),
  email: z.string().nullish(),
  // OpenID Connect says boolean; some Google endpoints have sent the string.
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).nullish(),
});

export function mapProfile(providerId: ProviderId, json: unknown): ProviderProfile | undefined {
  if (providerId === "discord") {
    const parsed = discordUser.safeParse(json);
    if (!parsed.success) return undefined;
    const user = parsed.data;
    const localPart = user.email?.split("@")[0];
    return {
      subject: user.id,
      displayName: user.global_name || user.username,
      username: user.username,
      email: verifiedEmail(user.email, user.verified === true),
      usernameCandidates: [user.username, user.global_name, localPart],
    };
  }
  const parsed = googleUser.safeParse(json);
  if (!parsed.success) return undefined;
  const user = parsed.data;
  const verified = user.email_verified === true || user.email_verified === "true";
  const localPart = user.email?.split("@")[0];
  return {
    subject: user.sub,
    displayName: user.name ?? null,
    username: null,
    email: verifiedEmail(user.email, verified),
    usernameCandidates: [user.name, localPart],
  };
}

/** A valid username (app/features/auth/schemas.ts) from what the profile offers, or "reader". */
export function usernameFromProfile(candidates: (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const cleaned = candidate
      .normalize("NFKC")
      .replace(/\p{M}/gu, "")
      .replace(/[^\p{L}\p{N}_.-]+/gu, "_")
      .replace(/^[_.-]+|[_.-]+$/g, "");
    // Cut by code points, not UTF-16 units, so no surrogate pair is split.
    const name = Array.from(cleaned).slice(0, USERNAME_MAX).join("");
    if (usernameSchema.safeParse(name).success) return name;
  }
  return "reader";
}

function withSuffix(base: string, suffix: string): string {
  return (
    Array.from(base)
      .slice(0, USERNAME_MAX - suffix.length)
      .join("") + suffix
  );
}

/** base, base2, base3 ... then random digits: the next name nobody has, in any case. */
async function* usernameCandidates(base: string): AsyncGenerator<string> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const candidate =
      attempt === 0
        ? base
        : withSuffix(base, attempt < 10 ? String(attempt + 1) : String(crypto.randomInt(1000, 1_000_000)));
    const [taken] = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, candidate.toLowerCase()));
    if (!taken) yield candidate;
  }
  throw new Error("no free username found");
}

/**
 * arctic's token request takes no abort signal: past the timeout the sign-in fails at once, and the request
 * itself is left to end (or to Node's own socket timeout) without holding the reader's response.
 */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function exchangeCode(
  provider: OAuthProvider,
  code: string,
  verifier: string,
): Promise<string | undefined> {
  try {
    const tokens = await withTimeout(
      oauthClient(provider).validateAuthorizationCode(provider.tokenUrl, code, verifier),
      FETCH_TIMEOUT_MS,
    );
    const accessToken = tokens.accessToken();
    if (!accessToken) throw new Error("token response with an empty access token");
    if (tokens.tokenType().toLowerCase() !== "bearer")
      throw new Error(`unexpected token type ${tokens.tokenType()}`);
    return accessToken;
  } catch (error) {
    logger.warn(
      { provider: provider.id, reason: errorMessage(error) },
      "social sign-in: code exchange failed",
    );
    return undefined;
  }
}

async function fetchProfile(
  provider: OAuthProvider,
  accessToken: string,
): Promise<ProviderProfile | undefined> {
  try {
    const response = await fetch(provider.userinfoUrl, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`userinfo endpoint answered ${response.status}`);
    const profile = mapProfile(provider.id, await response.json());
    if (!profile) throw new Error("userinfo without the expected fields");
    return profile;
  } catch (error) {
    logger.warn(
      { provider: provider.id, reason: errorMessage(error) },
      "social sign-in: profile fetch failed",
    );
    return undefined;
  }
}

const errorMessage = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 200);

const sameSecret = (a: string, b: string) =>
  crypto.timingSafeEqual(Buffer.from(hashToken(a)), Buffer.from(hashToken(b)));

async function findIdentity(provider: ProviderId, subject: string) {
  const [identity] = await db()
    .select({ userId: oauthIdentities.userId })
    .from(oauthIdentities)
    .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.subject, subject)));
  return identity;
}

/** What the identity shows of the provider's profile, as it was at the last sign-in. */
const identityNames = (profile: ProviderProfile) => ({
  displayName: profile.displayName?.slice(0, 100) ?? null,
  username: profile.username?.slice(0, 100) ?? null,
});

/** Inserts the identity; false when (provider, subject) is already taken (by a concurrent request, too). */
async function attachIdentity(provider: ProviderId, profile: ProviderProfile, userId: number) {
  try {
    await db()
      .insert(oauthIdentities)
      .values({
        provider,
        subject: profile.subject,
        userId,
        ...identityNames(profile),
      });
    return true;
  } catch (error) {
    if (violatedUniqueConstraint(error) === "oauth_identities_provider_subject") return false;
    throw error;
  }
}

/**
 * Finishes a sign-in on the callback: consumes the request (once), exchanges the code with its PKCE verifier,
 * reads the profile and signs in, links or creates the account. Failures are values, never exceptions.
 * `browserState` is the state the starting browser kept in its cookie: when given, it must match.
 */
export async function completeAuthorization(
  providerId: ProviderId,
  input: {
    code: string | null | undefined;
    state: string | null | undefined;
    /** The provider's `error` parameter (the reader declined, or the provider refused). */
    error?: string | null;
    browserState?: string;
    language?: Language;
    meta?: RequestMeta;
  },
): Promise<OAuthResult> {
  const log = { provider: providerId, ...input.meta };
  const fail = (code: OAuthErrorCode, extra: Record<string, unknown> = {}): OAuthResult => {
    logger.warn({ ...log, ...extra, code }, "social sign-in failed");
    return { ok: false, provider: providerId, error: oauthError(code) };
  };
  const provider = getProvider(providerId);
  if (!provider || !input.state) return fail("invalidState");

  // DELETE ... RETURNING: of two callbacks with the same state, only one gets the row.
  const [request] = await db()
    .delete(oauthRequests)
    .where(eq(oauthRequests.stateHash, hashToken(input.state)))
    .returning();
  if (!request || request.provider !== providerId || request.expiresAt.getTime() <= Date.now())
    return fail("invalidState", { reason: request ? "expired or other provider" : "unknown or used state" });
  if (input.browserState !== undefined && !sameSecret(input.browserState, input.state))
    return fail("invalidState", { reason: "state not from this browser" });
  if (input.error) return fail("denied", { providerError: input.error.slice(0, 64) });
  if (!input.code) return fail("invalidState", { reason: "no code" });

  const accessToken = await exchangeCode(provider, input.code, request.codeVerifier);
  if (!accessToken) return fail("exchangeFailed");
  const profile = await fetchProfile(provider, accessToken);
  if (!profile) return fail("profileFailed");

  const success = async (outcome: "signedIn" | "created" | "linked", userId: number, redirectTo: string) => {
    if (outcome === "signedIn" && (await isSuspended(userId))) return fail("suspended", { userId });
    logger.info({ ...log, userId, outcome }, `social sign-in: ${outcome}`);
    return { ok: true, outcome, userId, provider: providerId, redirectTo } as const;
  };

  const linkUserId = request.linkUserId;
  if (linkUserId !== null) {
    const owner = (await findIdentity(providerId, profile.subject))?.userId;
    if (owner === undefined && (await attachIdentity(providerId, profile, linkUserId)))
      return success("linked", linkUserId, request.redirectTo);
    const current = owner ?? (await findIdentity(providerId, profile.subject))?.userId;
    if (current === linkUserId) return success("linked", linkUserId, request.redirectTo);
    return fail("identityTaken", { userId: linkUserId });
  }

  const known = await findIdentity(providerId, profile.subject);
  if (known) {
    // The names may have changed at the provider since: the dashboard shows the current ones.
    await db()
      .update(oauthIdentities)
      .set(identityNames(profile))
      .where(and(eq(oauthIdentities.provider, providerId), eq(oauthIdentities.subject, profile.subject)));
    return success("signedIn", known.userId, request.redirectTo);
  }

  if (!profile.email) return fail("emailUnverified");
  const email = profile.email;
  const [holder] = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  // Never joined by e-mail: the reader proves the account with its password first, then links.
  if (holder) return fail("emailInUse", { existingUserId: holder.id });

  let userId: number | undefined;
  for await (const username of usernameCandidates(usernameFromProfile(profile.usernameCandidates))) {
    try {
      userId = await createAccount({ username, email, password: null, language: input.language });
      break;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      if (error.field === "email") return fail("emailInUse");
      // The name was taken in between: try the next one.
    }
  }
  if (userId === undefined) throw new Error("no account created");
  if (!(await attachIdentity(providerId, profile, userId))) {
    // A concurrent sign-in with the same identity won: keep its account, drop ours.
    await db().delete(users).where(eq(users.id, userId));
    const winner = await findIdentity(providerId, profile.subject);
    if (!winner) throw new Error("identity vanished");
    return success("signedIn", winner.userId, request.redirectTo);
  }
  return success("created", userId, "/welcome");
}

function stateCookieName(): string {
  return getEnv().origin.startsWith("https:") ? "__Host-oauth_state" : "oauth_state";
}

/**
 * The state also goes into a short-lived cookie, so a callback URL made in another browser (login CSRF:
 * someone signing a victim into the attacker's account) is refused. SameSite=Lax is sent on the provider's
 * top-level redirect back.
 */
export function stateCookie(state: string | null): string {
  const parts = [
    `${stateCookieName()}=${state ?? ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${state ? REQUEST_VALID_MS / 1000 : 0}`,
  ];
  if (getEnv().origin.startsWith("https:")) parts.push("Secure");
  return parts.join("; ");
}

export function readStateCookie(request: Request): string {
  return readCookies(request).get(stateCookieName()) ?? "";
}
