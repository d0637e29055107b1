import type { Browser, Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { expect, hydrated } from "./fixtures";
import { findMail } from "./mail";
import { newReader } from "./unique";

export { newReader };

type Reader = { username: string; email: string; password: string };

/** Fills and sends the registration form (opening /register unless `onForm`: the page already shows it). */
export async function fillRegistration(page: Page, reader: Reader, { onForm = false } = {}) {
  if (!onForm) await page.goto("/register");
  await page.getByLabel("Username").fill(reader.username);
  await page.getByLabel("Email").fill(reader.email);
  await page.getByLabel("Password", { exact: true }).fill(reader.password);
  await page.getByLabel("Confirm password").fill(reader.password);
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
}

/**
 * Registers through the form: the new reader is signed in and taken on (to /welcome, or the page that sent
 * them to register), ADR 56.
 */
export async function submitRegistration(page: Page, reader: Reader, { onForm = false } = {}) {
  await fillRegistration(page, reader, { onForm });
  await page.waitForURL((url) => url.pathname !== "/register");
}

/** Registers a new reader, signed in on the welcome page; their address is not confirmed yet (`confirmEmail`). */
export async function register(page: Page, reader = newReader()) {
  await submitRegistration(page, reader);
  await expect(page).toHaveURL(/\/welcome$/);
  return reader;
}

/** Follows the welcome e-mail's link and confirms the reader's address (ADR 56). */
export async function confirmEmail(page: Page, reader: { email: string }) {
  const mail = await outboxMessage(reader.email, "/confirm-email?token=");
  const link = /https?:\/\/[^/\s]+(\/confirm-email\?token=[\w-]+)/.exec(mail)?.[1];
  expect(link).toBeDefined();
  await page.goto(link ?? "");
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByText("Your e-mail address is confirmed.")).toBeVisible();
}

export async function login(page: Page, reader: { email: string; password: string }, path = "/login") {
  if (path) await page.goto(path);
  await page.getByLabel("Email").fill(reader.email);
  await page.getByLabel("Password").fill(reader.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/**
 * The newest e-mail to `to` containing `containing`, in the server's outbox (E2E_DATA_DIR, set by the
 * Playwright config). A reader's first e-mail is the welcome one, so a later one is asked for by its content.
 */
export async function outboxMessage(to: string, containing = ""): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR ?? "";
  let found: string | undefined;
  await expect
    .poll(() => {
      found = findMail(dataDir, to, { containing, newest: true });
      return found !== undefined;
    })
    .toBe(true);
  return found ?? "";
}

/** `npm run admin -- grant-author` on the browser tests' server (through its admin socket), as an operator. */
export async function grantAuthor(email: string): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant-author", email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
}

/**
 * Moves one reader's reading time on by `seconds` on /admin/clock (TEST_CLOCK, ADR 105), as an author of its
 * own in a context of its own: the server then counts that much more reading for that reader, and only them,
 * without the test waiting it out.
 */
export async function moveReadingOn(browser: Browser, email: string, seconds: number) {
  const context = await browser.newContext();
  try {
    const author = await context.newPage();
    const writer = await register(author);
    await grantAuthor(writer.email);
    await author.goto("/admin/clock");
    await hydrated(author);
    await author.getByLabel("The reader's e-mail").fill(email);
    await author.getByLabel("Seconds").fill(String(seconds));
    await author.getByRole("button", { name: "Move their reading time on" }).click();
    await expect(author.getByText("The reader's reading time has moved on.")).toBeVisible();
  } finally {
    await context.close();
  }
}

/**
 * Uploads a new PNG of `width`×`height` named `name` on /admin/uploads, as an author does. Its colour is one
 * of 16.7 million drawn at random, so each call's image has bytes (and so an upload key) of its own: two
 * tests running at once never meet "already uploaded" (a colour from the clock's milliseconds did, 1 in 200).
 */
export async function uploadPng(page: Page, name: string, width: number, height: number) {
  const { default: sharp } = await import("sharp");
  const { randomInt } = await import("node:crypto");
  const background = { r: randomInt(256), g: randomInt(256), b: randomInt(256) };
  const png = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  await page.goto("/admin/uploads");
  await hydrated(page);
  await page
    .getByLabel("Image (PNG, JPEG, WebP, GIF or AVIF, up to 10 MB)")
    .setInputFiles({ name, mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText(`${name} is uploaded.`)).toBeVisible();
}

/**
 * Deletes the chapter whose editor is at `editor` (/admin/chapters/N) as an author does, from its page. A test
 * that writes a chapter deletes it: chapter numbers are the next free one, and tests/e2e/release.spec.ts
 * writes chapter 12 (after the demo's draft, 11) after every other project.
 */
export async function deleteChapter(page: Page, editor: string): Promise<string> {
  await page.goto(editor);
  await hydrated(page);
  const number = (await page.getByRole("heading", { level: 1 }).textContent())?.match(/\d+/)?.[0] ?? "";
  await page.getByText("Delete this chapter").click();
  await page.getByLabel("I understand that the chapter and its history are deleted for good").check();
  await page.getByRole("button", { name: `Delete chapter ${number}` }).click();
  await expect(page.getByText(`Chapter ${number} was deleted.`)).toBeVisible();
  return number;
}

/**
 * The signed-in reader joins First Human with a support subscription on the test provider, from /account's
 * panel, as a supporter does; ends on the thanks page.
 */
export async function joinFirstHuman(page: Page, timeout = 15_000) {
  await page.goto("/account");
  const panel = page.getByRole("region", { name: en.subscriptions.panelTitle });
  await hydrated(page);
  await panel.getByRole("radio", { name: /^First Human/ }).check();
  await panel.getByRole("button", { name: en.subscriptions.joinForm.submit }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/, { timeout });
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/, { timeout });
}
