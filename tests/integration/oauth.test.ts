import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { oauthIdentities, oauthRequests, users } from "#db/schema";
import { createAccount } from "~/features/auth/commands.server";
import { completeAuthorization, startAuthorization } from "~/features/auth/oauth.server";
import type { ProviderId } from "~/features/auth/oauth-providers.server";
import { ledgerBalance } from "~/features/coins/ledger.server";
import { hashToken } from "~/lib/tokens.server";
import {
  approve,
  discordProfile,
  type FakeProvider,
  googleProfile,
  startFakeProvider,
} from "../oauth/fake-provider";
import { drivers, openTestDatabase } from "../support/database";
import { unique } from "../support/unique";

// The app's configuration is read once, at first use: the providers must be running and in the environment
// before any test runs.
const origin = "http://app.test";
process.env.APP_ORIGIN = origin;
const providers: Record<ProviderId, FakeProvider> = {
  discord: await startFakeProvider("discord", { redirectUri: `${origin}/auth/discord/callback` }),
  google: await startFakeProvider("google", { redirectUri: `${origin}/auth/google/callback` }),
};
Object.assign(process.env, providers.discord.env(), providers.google.env());
afterAll(() => Promise.all(Object.values(providers).map((provider) => provider.close())));

/** The whole flow as a browser would make it: start, approve at the provider, come back with code and state. */
async function signIn(
  provider: ProviderId,
  profile: object,
  options: { redirectTo?: string; linkUserId?: number } = {},
) {
  providers[provider].profile = profile;
  const authorizeUrl = await startAuthorization(provider, {
    ...options,
    redirectTo: options.redirectTo ?? "/account",
  });
  const back = await approve(authorizeUrl);
  const code = back.searchParams.get("code");
  const state = back.searchParams.get("state");
  const result = await completeAuthorization(provider, { code, state });
  return { result, code, state, back };
}

describe.each(drivers)("social sign-in on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(() => handle.close());

  const identitiesOf = (userId: number) =>
    handle.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, userId));

  it("sends the browser to the provider with state and an S256 challenge, storing only the state's hash", async () => {
    const url = new URL(await startAuthorization("discord", { redirectTo: "/chapter/2" }));
    expect(`${url.origin}${url.pathname}`).toBe(`${providers.discord.url}/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: "code",
      client_id: providers.discord.clientId,
      redirect_uri: `${origin}/auth/discord/callback`,
      scope: "identify email",
      code_challenge_method: "S256",
    });
    const state = params.state ?? "";
    expect(state.length).toBeGreaterThanOrEqual(43);
    const [stored] = await handle.db
      .select()
      .from(oauthRequests)
      .where(eq(oauthRequests.stateHash, hashToken(state)));
    expect(stored).toMatchObject({ provider: "discord", redirectTo: "/chapter/2", linkUserId: null });
    expect(
      (await handle.db.select().from(oauthRequests).where(eq(oauthRequests.stateHash, state))).length,
    ).toBe(0);
    expect(stored?.codeVerifier.length).toBeGreaterThanOrEqual(43);
    const challenge = crypto
      .createHash("sha256")
      .update(stored?.codeVerifier ?? "")
      .digest("base64url");
    expect(params.code_challenge).toBe(challenge);
    const minutes = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
  });

  it("creates an account with its 3 welcome coins and the identity on a first sign-in", async () => {
    const profile = discordProfile();
    const { result, state } = await signIn("discord", profile);
    expect(result).toMatchObject({
      ok: true,
      outcome: "created",
      provider: "discord",
      redirectTo: "/welcome",
    });
    if (!result.ok) throw new Error("sign-in failed");
    const [user] = await handle.db.select().from(users).where(eq(users.id, result.userId));
    expect(user).toMatchObject({ username: profile.username, email: profile.email, passwordHash: null });
    expect(user?.coinBalance).toBe(3);
    expect(await ledgerBalance(handle.db, result.userId)).toBe(3);
    expect(await identitiesOf(result.userId)).toEqual([
      expect.objectContaining({ provider: "discord", subject: profile.id, displayName: profile.global_name }),
    ]);
    const left = await handle.db
      .select()
      .from(oauthRequests)
      .where(eq(oauthRequests.stateHash, hashToken(state ?? "")));
    expect(left).toEqual([]);
  });

  it("signs the same user in on the next sign-in, to where they were going", async () => {
    const profile = discordProfile();
    const first = await signIn("discord", profile);
    if (!first.result.ok) throw new Error("first sign-in failed");
    // A changed e-mail or name at the provider does not matter: the key is (provider, subject).
    const second = await signIn(
      "discord",
      { ...profile, email: `other${unique()}@example.com`, username: `renamed${unique()}` },
      { redirectTo: "/chapter/3" },
    );
    expect(second.result).toEqual({
      ok: true,
      outcome: "signedIn",
      userId: first.result.userId,
      provider: "discord",
      redirectTo: "/chapter/3",
    });
    expect(await identitiesOf(first.result.userId)).toHaveLength(1);
  });

  it("refuses a replayed or unknown state", async () => {
    const { result, code, state } = await signIn("discord", discordProfile());
    expect(result.ok).toBe(true);
    const replay = await completeAuthorization("discord", { code, state });
    expect(replay).toMatchObject({
      ok: false,
      error: { code: "invalidState", messageKey: "oauth.errors.invalidState" },
    });
    const unknown = await completeAuthorization("discord", { code, state: "not-a-state" });
    expect(unknown).toMatchObject({ ok: false, error: { code: "invalidState" } });
    expect(await completeAuthorization("discord", { code, state: null })).toMatchObject({ ok: false });
  });

  it("refuses a state started for another provider, an expired one, or one from another browser", async () => {
    providers.discord.profile = discordProfile();
    const forDiscord = await approve(await startAuthorization("discord", {}));
    expect(
      await completeAuthorization("google", {
        code: forDiscord.searchParams.get("code"),
        state: forDiscord.searchParams.get("state"),
      }),
    ).toMatchObject({ ok: false, error: { code: "invalidState" } });

    const late = await approve(await startAuthorization("discord", {}));
    const lateState = late.searchParams.get("state") ?? "";
    await handle.db
      .update(oauthRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthRequests.stateHash, hashToken(lateState)));
    expect(
      await completeAuthorization("discord", { code: late.searchParams.get("code"), state: lateState }),
    ).toMatchObject({ ok: false, error: { code: "invalidState" } });

    const elsewhere = await approve(await startAuthorization("discord", {}));
    expect(
      await completeAuthorization("discord", {
        code: elsewhere.searchParams.get("code"),
        state: elsewhere.searchParams.get("state"),
        browserState: "someone-elses-state",
      }),
    ).toMatchObject({ ok: false, error: { code: "invalidState" } });
  });

  it("is rejected by the provider when the code verifier does not match the challenge", async () => {
    const profile = discordProfile();
    providers.discord.profile = profile;
    const authorizeUrl = await startAuthorization("discord", {});
    const state = new URL(authorizeUrl).searchParams.get("state") ?? "";
    await handle.db
      .update(oauthRequests)
      .set({ codeVerifier: crypto.randomBytes(32).toString("base64url") })
      .where(eq(oauthRequests.stateHash, hashToken(state)));
    const back = await approve(authorizeUrl);
    const result = await completeAuthorization("discord", { code: back.searchParams.get("code"), state });
    expect(result).toMatchObject({ ok: false, error: { code: "exchangeFailed", status: 502 } });
    expect(providers.discord.tokenAttempts.at(-1)).toEqual({ ok: false, error: "invalid_grant" });
    const [identity] = await handle.db
      .select()
      .from(oauthIdentities)
      .where(eq(oauthIdentities.subject, profile.id));
    expect(identity).toBeUndefined();
  });

  it("does not link or sign in when the e-mail belongs to a password account", async () => {
    const email = `vesna${unique()}@example.com`;
    const existing = await createAccount({ username: `vesna${unique()}`, email, password: "secret1" });
    const profile = discordProfile({ email: email.toUpperCase() });
    const { result } = await signIn("discord", profile);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "emailInUse", messageKey: "oauth.errors.emailInUse", status: 409 },
    });
    expect(await identitiesOf(existing)).toEqual([]);
    const holders = await handle.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    expect(holders.map((user) => user.id)).toEqual([existing]);
  });

  it("asks for a verified e-mail when the provider has none", async () => {
    const unverified = discordProfile({ verified: false });
    expect((await signIn("discord", unverified)).result).toMatchObject({
      ok: false,
      error: { code: "emailUnverified" },
    });
    const noEmail = googleProfile({ email: undefined, email_verified: undefined });
    expect((await signIn("google", noEmail)).result).toMatchObject({
      ok: false,
      error: { code: "emailUnverified" },
    });
    const [nobody] = await handle.db
      .select()
      .from(oauthIdentities)
      .where(and(eq(oauthIdentities.provider, "discord"), eq(oauthIdentities.subject, unverified.id)));
    expect(nobody).toBeUndefined();
  });

  it("links the provider to the signed-in reader who started it", async () => {
    const userId = await createAccount({
      username: `mira${unique()}`,
      email: `mira${unique()}@example.com`,
      password: "secret1",
    });
    // In link mode the provider's e-mail does not matter: the reader is already proven.
    const profile = googleProfile({ email_verified: false });
    const { result } = await signIn("google", profile, { linkUserId: userId });
    expect(result).toEqual({
      ok: true,
      outcome: "linked",
      userId,
      provider: "google",
      redirectTo: "/account",
    });
    expect(await identitiesOf(userId)).toEqual([
      expect.objectContaining({ provider: "google", subject: profile.sub, displayName: profile.name }),
    ]);
    // Linking it again is harmless; the linked identity then signs the reader in.
    expect((await signIn("google", profile, { linkUserId: userId })).result).toMatchObject({
      ok: true,
      outcome: "linked",
    });
    expect((await signIn("google", profile)).result).toMatchObject({ ok: true, outcome: "signedIn", userId });
  });

  it("refuses to link an identity that belongs to someone else", async () => {
    const profile = discordProfile();
    const owner = await signIn("discord", profile);
    if (!owner.result.ok) throw new Error("first sign-in failed");
    const other = await createAccount({
      username: `oren${unique()}`,
      email: `oren${unique()}@example.com`,
      password: "secret1",
    });
    const { result } = await signIn("discord", profile, { linkUserId: other });
    expect(result).toMatchObject({ ok: false, error: { code: "identityTaken", status: 409 } });
    expect(await identitiesOf(other)).toEqual([]);
    expect(await identitiesOf(owner.result.userId)).toHaveLength(1);
  });

  it("makes a valid, unique username from a Google name", async () => {
    const name = `Ilse Varga ${unique()}`;
    const first = await signIn("google", googleProfile({ name }));
    const second = await signIn("google", googleProfile({ name }));
    if (!first.result.ok || !second.result.ok) throw new Error("sign-in failed");
    const [a] = await handle.db.select().from(users).where(eq(users.id, first.result.userId));
    const [b] = await handle.db.select().from(users).where(eq(users.id, second.result.userId));
    expect(a?.username).toBe(name.replaceAll(" ", "_"));
    expect(b?.username).toBe(`${name.replaceAll(" ", "_")}2`);
  });

  it("reports the reader's refusal at the provider", async () => {
    providers.google.denyWith = "access_denied";
    try {
      const authorizeUrl = await startAuthorization("google", {});
      const back = await approve(authorizeUrl);
      expect(back.searchParams.get("error")).toBe("access_denied");
      const result = await completeAuthorization("google", {
        code: null,
        state: back.searchParams.get("state"),
        error: back.searchParams.get("error"),
      });
      expect(result).toMatchObject({ ok: false, error: { code: "denied" } });
    } finally {
      providers.google.denyWith = undefined;
    }
  });
});
