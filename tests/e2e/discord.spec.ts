import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { type FakeDiscord, startFakeDiscord } from "../discord/fake-discord";
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * The Discord role from /settings#discord (ADR 84), against a local stand-in of Discord: a server of this
 * file's own (the shared one has no Discord configured), on a free port, one per project (desktop, phone).
 */

let server: RunningServer | undefined;
let discord: FakeDiscord | undefined;
let origin = "";
let dataDir = "";

// The origin is known once beforeAll has a port; Playwright reads a fixture's needs from its destructuring.
// biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern, even empty
test.use({ baseURL: async ({}, use) => use(origin) });

test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  discord = await startFakeDiscord({ redirectUri: `${origin}/settings/discord/callback` });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-discord-"));
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    SIGNUP_LIMIT_PER_HOUR: "10000",
    CHECKOUT_LIMIT_PER_HOUR: "10000",
    ...discord.env(),
  });
  const child = server.child;
  process.once("exit", () => child.kill());
  await waitUntilReady(server);
});

test.afterAll(async () => {
  await server?.stop();
  await discord?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const d = en.discord;

test("an Observer links Discord from /settings, gets the role on the server, then unlinks", async ({
  page,
}, testInfo) => {
  // A server of its own to start, registration, a payment and two trips to Discord: a ceiling.
  test.slow();
  if (!discord) throw new Error("no stand-in");
  await register(page);

  // Observer through the test payment provider.
  await page.goto("/account");
  const panel = page.getByRole("region", { name: en.subscriptions.panelTitle });
  await hydrated(page);
  await panel.getByRole("radio", { name: /^Observer/ }).check();
  await panel.getByRole("button", { name: en.subscriptions.joinForm.submit }).click();
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks/);

  await page.goto("/settings");
  await page.getByRole("link", { name: en.settings.nav.discord, exact: true }).click();
  const section = page.getByRole("region", { name: d.title });
  await expect(section.getByText(d.notLinked)).toBeVisible();
  await section.getByRole("button", { name: d.link }).click();

  // Discord approves at once and sends the browser back to the section.
  await expect(page).toHaveURL(/\/settings\?discord=linked#discord$/);
  await expect(section.getByText(d.outcomes.linked)).toBeVisible();
  await expect(section.getByText(d.linkedAs.replace("{{username}}", discord.user.username))).toBeVisible();
  await expect(section.getByText(d.roleGiven)).toBeVisible();
  expect([...(discord.members.get(discord.user.id) ?? [])]).toEqual([discord.roles.observer]);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("settings-discord.png"), fullPage: false });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);

  await section.getByRole("button", { name: d.unlink }).click();
  await expect(page).toHaveURL(/\/settings\?discord=unlinked#discord$/);
  await expect(section.getByText(d.outcomes.unlinked)).toBeVisible();
  expect([...(discord.members.get(discord.user.id) ?? [])]).toEqual([]);
});
