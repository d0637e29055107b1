import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discordProfile, type FakeProvider, googleProfile, startFakeProvider } from "../oauth/fake-provider";
import { Client, registerAndSignIn } from "../support/http";
import { waitForMail } from "../support/mail";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { newReader } from "../support/unique";

/**
 * Social sign-in over HTTP against the built server, with the fake OAuth providers on loopback: the browser's
 * part (form post, redirects, cookies) is played by hand.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-oauth-server-"));
let server: RunningServer;
let discord: FakeProvider;
let google: FakeProvider;

beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  discord = await startFakeProvider("discord", { redirectUri: `${origin}/auth/discord/callback` });
  google = await startFakeProvider("google", { redirectUri: `${origin}/auth/google/callback` });
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    ...discord.env(),
    ...google.env(),
  });
  await waitUntilReady(server);
});
afterAll(async () => {
  await server?.stop();
  await discord?.close();
  await google?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The browser's round trip: the form post to /auth/<provider>, the provider's authorize page (which approves
 * at once) and its redirect back to the callback. Returns the callback's answer and its URL.
 */
async function roundTrip(client: Client, provider: "discord" | "google", redirectTo = "/account") {
  const started = await client.post(`/auth/${provider}`, { redirectTo });
  expect(started.status).toBe(302);
  const authorize = started.headers.get("location") ?? "";
  expect(authorize.startsWith(`${provider === "discord" ? discord.url : google.url}/authorize?`)).toBe(true);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get("location") ?? "");
  expect(`${callback.origin}${callback.pathname}`).toBe(`${server.url}/auth/${provider}/callback`);
  const answer = await client.get(`${callback.pathname}${callback.search}`);
  return { answer, callback: `${callback.pathname}${callback.search}` };
}

describe("social sign-in through the production server", () => {
  it("shows the buttons of the configured providers on /login and /register", async () => {
    for (const page of ["/login", "/register"]) {
      const html = await (await fetch(`${server.url}${page}`)).text();
      expect(html).toContain('action="/auth/discord"');
      expect(html).toContain("Continue with Discord");
      expect(html).toContain("Continue with Google");
    }
  });

  it("signs a new reader up with Discord: callback, session cookie, /welcome, then /account", async () => {
    const profile = discordProfile();
    discord.profile = profile;
    const browser = new Client(server.url);
    const { answer } = await roundTrip(browser, "discord", "/chapters");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/welcome");
    expect(
      answer.headers.getSetCookie().some((cookie) => /^session=[\w-]{40,}; Path=\/; HttpOnly/.test(cookie)),
    ).toBe(true);
    // The state cookie is spent.
    expect(browser.cookies.has("oauth_state")).toBe(false);

    const account = await browser.get("/account");
    expect(account.status).toBe(200);
    const html = await account.text();
    expect(html).toContain(profile.username);
    expect(html).toContain(profile.email);
    // The dashboard shows the Discord username (discordUsername).
    expect(html).toMatch(new RegExp(`data-testid="discord-username"[^>]*>${profile.username}<`));
    expect(html).toMatch(/data-testid="coin-balance"[^>]*>3</);
    const settings = await (await browser.get("/settings")).text();
    expect(settings).toContain("Discord is linked");
    expect(settings).toContain(`· <!-- -->${profile.username}`);
    // Google is configured but not linked: its button is offered.
    expect(settings).toContain('action="/auth/google"');
    expect(settings).toContain("Link Google");

    // Signing in again later goes where the reader was going, as the same account.
    const later = new Client(server.url);
    const again = await roundTrip(later, "discord", "/chapters");
    expect(again.answer.headers.get("location")).toBe("/chapters");
    expect(await (await later.get("/account")).text()).toContain(profile.username);
  });

  it("keeps a visitor's cart through a social sign-up: merged into the reader's, the cookie cleared (ADR 24)", async () => {
    discord.profile = discordProfile();
    const browser = new Client(server.url);
    const added = await browser.post("/cart", {
      intent: "add",
      productId: "1",
      variantId: "",
      quantity: "2",
    });
    expect(added.status).toBe(302);
    expect(browser.cookies.get("cart")).toBe("1x2");
    const { answer } = await roundTrip(browser, "discord", "/shop");
    expect(answer.status).toBe(302);
    expect(answer.headers.getSetCookie()).toContain("cart=; Path=/; SameSite=Lax; Max-Age=0");
    expect(browser.cookies.has("cart")).toBe(false);
    expect(await (await browser.get("/shop")).text()).toContain("2 items");
  });

  it("links Google to the signed-in reader from /settings, then unlinks all but the last way to sign in", async () => {
    discord.profile = discordProfile();
    const browser = new Client(server.url);
    await roundTrip(browser, "discord");
    const sessionBefore = browser.cookies.get("session");
    google.profile = googleProfile({ email_verified: false });
    const { answer } = await roundTrip(browser, "google", "/settings#linked");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/settings#linked");
    // Linking keeps the session.
    expect(browser.cookies.get("session")).toBe(sessionBefore);
    let html = await (await browser.get("/settings")).text();
    expect(html).toContain("Discord is linked");
    expect(html).toContain("Google is linked");
    expect(html).not.toContain("Link Google");

    // The account has no password: Discord can go while Google stays, not both.
    const unlinked = await browser.post("/settings", { intent: "unlink", provider: "discord" });
    expect(unlinked.status).toBe(200);
    html = await (await browser.get("/settings")).text();
    expect(html).not.toContain("Discord is linked");
    expect(html).toContain("Link Discord");
    expect(await (await browser.get("/account")).text()).toContain("Link Discord");
    const last = await browser.post("/settings", { intent: "unlink", provider: "google" });
    expect(last.status).toBe(400);
    expect(await last.text()).toContain("the only way to sign in");
    expect(await (await browser.get("/settings")).text()).toContain("Google is linked");
    // The unlinked Discord account no longer signs in to this one (its e-mail is this account's: refused).
    const other = new Client(server.url);
    const again = await roundTrip(other, "discord", "/chapters");
    expect(again.answer.status).toBe(409);
    expect(other.cookies.has("session")).toBe(false);
  });

  it("refuses a replayed callback and one from another browser, with a page that explains", async () => {
    discord.profile = discordProfile();
    const browser = new Client(server.url);
    const { answer, callback } = await roundTrip(browser, "discord");
    expect(answer.status).toBe(302);
    const replay = await new Client(server.url).get(callback);
    expect(replay.status).toBe(400);
    const html = await replay.text();
    expect(html).toContain("This sign-in request has expired or was already used.");
    expect(html).toContain('href="/login"');
    expect(html).toContain('href="/account"');
    expect(replay.headers.getSetCookie().some((cookie) => cookie.startsWith("session="))).toBe(false);

    // A callback URL made in one browser and opened in another (login CSRF) does not sign anyone in.
    const attacker = new Client(server.url);
    const started = await attacker.post("/auth/discord", { redirectTo: "/account" });
    const atProvider = await fetch(started.headers.get("location") ?? "", { redirect: "manual" });
    const forged = new URL(atProvider.headers.get("location") ?? "");
    const victim = new Client(server.url);
    const refused = await victim.get(`${forged.pathname}${forged.search}`);
    expect(refused.status).toBe(400);
    expect(victim.cookies.has("session")).toBe(false);
  });

  it("does not sign in to a password account that has the same e-mail", async () => {
    const who = newReader("pw", "first secret");
    const registered = await registerAndSignIn(new Client(server.url), who, (to) => waitForMail(dataDir, to));
    expect(registered.status).toBe(302);
    discord.profile = discordProfile({ email: who.email });
    const browser = new Client(server.url);
    const { answer } = await roundTrip(browser, "discord");
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain(
      "Sign in with your password, then link Discord from your account page.",
    );
    expect(browser.cookies.has("session")).toBe(false);
  });

  it("shows the provider's refusal", async () => {
    discord.denyWith = "access_denied";
    try {
      const { answer } = await roundTrip(new Client(server.url), "discord");
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain("The sign-in was cancelled at Discord.");
    } finally {
      discord.denyWith = undefined;
    }
  });

  it("starts only by a same-origin POST to a configured provider", async () => {
    const crossSite = await fetch(`${server.url}/auth/discord`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/account" }),
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
    const get = await fetch(`${server.url}/auth/discord`, { redirect: "manual" });
    expect(get.status).toBe(302);
    expect(get.headers.get("location")).toBe("/login");
    const browser = new Client(server.url);
    expect((await browser.post("/auth/github", { redirectTo: "/" })).status).toBe(404);
    expect((await browser.get("/auth/github/callback?code=x&state=y")).status).toBe(404);
  });
});
