import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page, Request } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { login, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * Passkeys end to end (ADR 65), with Chromium's virtual authenticator. A WebAuthn credential is tied to a
 * host name, never to a bare IP address, so this file runs against a server of its own whose origin is
 * http://localhost:<E2E_PORT + 1> (the shared server's is http://127.0.0.1). Once, on the desktop project:
 * the tests share that server, one after the other.
 */

const port = Number(process.env.E2E_PORT ?? 3210) + 1;
const origin = `http://localhost:${port}`;
test.use({ baseURL: origin });
test.describe.configure({ mode: "serial" });

let server: RunningServer | undefined;
let dataDir = "";

/** The server on localhost, started by the first test that needs it. */
async function localServer(): Promise<void> {
  if (server) return;
  // A server left on the port (by a run cut short) would answer in this one's place: refuse to start.
  await portIsFree(port);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-passkeys-"));
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    SIGNUP_LIMIT_PER_HOUR: "10000",
  });
  // Stopped with the worker, also when a timed-out test ends it before afterAll.
  const child = server.child;
  process.once("exit", () => child.kill());
  await waitUntilReady(server);
}

function portIsFree(at: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", () => reject(new Error(`port ${at} is taken: stop what listens there`)));
    probe.listen(at, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test.beforeEach(async ({ baseURL: _baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one authenticator, one server: walked once");
  // A server of its own to start, and long walks through several pages and sign-ins: three times the ceiling.
  test.slow();
  await localServer();
});

function grantAuthor(email: string) {
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant-author", email], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
}

/** A platform authenticator with user verification, as a phone or laptop has, in this page's browser. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.map((c) => c.credentialId),
  };
}

/** The form a page posts to `pathname` (the passkey button submits its answer through the router). */
function capturePosts(page: Page, pathname: string): URLSearchParams[] {
  const posts: URLSearchParams[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith(pathname))
      posts.push(new URLSearchParams(request.postData() ?? ""));
  });
  return posts;
}

type AssertionOptions = { challenge: string; rpId: string; allowCredentials: { id: string }[] };

/**
 * In the page: the authenticator's answer to sign-in `options`, as @simplewebauthn/browser posts it (for a
 * test that needs a signature over options the page was not given).
 */
async function signWithPasskey(options: AssertionOptions): Promise<string> {
  const bytes = (text: string) =>
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const text = (buffer: ArrayBuffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const credential = (await navigator.credentials.get({
    publicKey: {
      challenge: bytes(options.challenge),
      rpId: options.rpId,
      allowCredentials: options.allowCredentials.map((key) => ({ type: "public-key", id: bytes(key.id) })),
      userVerification: "preferred",
    },
  })) as PublicKeyCredential;
  const response = credential.response as AuthenticatorAssertionResponse;
  return JSON.stringify({
    id: credential.id,
    rawId: credential.id,
    type: "public-key",
    response: {
      clientDataJSON: text(response.clientDataJSON),
      authenticatorData: text(response.authenticatorData),
      signature: text(response.signature),
    },
    clientExtensionResults: {},
  });
}

/** The account's second factors as /settings/security lists them. */
const factors = (page: Page) => page.getByRole("region", { name: "Second factors" }).getByRole("listitem");

/** The browser's `sign-in` cookie: which second step the context is in. */
async function signInCookie(context: BrowserContext): Promise<string> {
  return (await context.cookies(origin)).find((cookie) => cookie.name === "sign-in")?.value ?? "";
}

test("an author adds a passkey, signs in with it, the answer cannot be used twice, removing it asks for the password", async ({
  page,
  browser,
}) => {
  const author = await register(page);
  grantAuthor(author.email);
  const authenticator = await virtualAuthenticator(page);

  // Enrol: the passkey is made by the authenticator, listed, its recovery codes shown once, audited.
  await page.goto("/settings/security");
  await expect(
    page.getByText("Signing in asks only for your password.").or(page.getByText("Until you add")),
  ).toBeVisible();
  await hydrated(page);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("The passkey is added.")).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  await expect(factors(page)).toHaveCount(1);
  await expect(factors(page)).toContainText("Passkey");
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await page.goto(`/admin/audit?action=second-factor.enrolled`);
  await expect(
    page.getByTestId("audit-entries").locator("li").filter({ hasText: author.username }),
  ).toContainText('"kind":"passkey"');

  // Sign out, then in: the password leads to the second step, which the passkey completes.
  await page.goto("/account");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await login(page, author);
  await expect(page).toHaveURL(/\/login\/verify$/);
  await expect(page.getByLabel("Code from the e-mail")).toHaveCount(0);
  const usedChallenge = await signInCookie(page.context());
  expect(usedChallenge).not.toBe("");
  const posts = capturePosts(page, "/login/verify");
  await hydrated(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect((await page.request.get("/admin")).status()).toBe(200);
  const answer = posts.find((form) => form.get("intent") === "passkey")?.get("response") ?? "";
  expect(JSON.parse(answer)).toMatchObject({
    type: "public-key",
    response: { signature: expect.any(String) },
  });

  // The same answer again, over HTTP from a browser without a session (to the action's route data, which
  // answers with the action's own status and message): refused on the used sign-in (it is gone) and on a
  // new one whose passkey options were just given (another challenge), and no session made.
  const replay = await browser.newContext({ baseURL: origin });
  try {
    await replay.addCookies([{ name: "sign-in", value: usedChallenge, url: origin }]);
    const again = await replay.request.post("/login/verify.data", {
      form: { intent: "passkey", response: answer },
    });
    expect(again.status()).toBe(401);
    expect(await again.text()).toContain("twoFactor.verify.expired");

    await replay.clearCookies();
    const replayPage = await replay.newPage();
    await login(replayPage, author);
    await expect(replayPage).toHaveURL(/\/login\/verify$/);
    const options = await replay.request.post("/login/verify/passkey");
    expect(options.status()).toBe(200);
    expect((await options.json()).challenge).toEqual(expect.any(String));
    const replayed = await replay.request.post("/login/verify.data", {
      form: { intent: "passkey", response: answer },
    });
    expect(replayed.status()).toBe(401);
    expect(await replayed.text()).toContain("twoFactor.verify.wrong");
    // A fresh signature (the authenticator's counter moved on) over options given before the latest: only
    // the last challenge counts.
    const earlier = (await (await replay.request.post("/login/verify/passkey")).json()) as AssertionOptions;
    expect((await replay.request.post("/login/verify/passkey")).status()).toBe(200);
    const stale = await page.evaluate(signWithPasskey, earlier);
    const late = await replay.request.post("/login/verify.data", {
      form: { intent: "passkey", response: stale },
    });
    expect(late.status()).toBe(401);
    expect(await late.text()).toContain("twoFactor.verify.wrong");
    expect((await replay.request.get("/admin")).status()).toBe(404);
    expect((await replay.cookies(origin)).some((cookie) => cookie.name === "session")).toBe(false);
  } finally {
    await replay.close();
  }

  // Removing the passkey asks for the password: a wrong one keeps it.
  await page.goto("/settings/security");
  await hydrated(page);
  const row = factors(page).filter({ hasText: "Passkey" });
  await row.getByLabel("Current password").fill("not-the-password");
  await row.getByRole("button", { name: /^Remove / }).click();
  await expect(page.getByText(en.validation.currentPasswordWrong)).toBeVisible();
  await expect(factors(page)).toHaveCount(1);
  await factors(page).getByLabel("Current password").fill(author.password);
  await factors(page)
    .getByRole("button", { name: /^Remove / })
    .click();
  await expect(page.getByText("Removed.")).toBeVisible();
  await expect(factors(page)).toHaveCount(0);
  await expect(page.getByText("Until you add a second factor")).toBeVisible();
});
