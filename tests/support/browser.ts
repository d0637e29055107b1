import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

let counter = 0;

/** A new reader's details, unique across workers and runs. */
export function newReader(prefix = "reader") {
  const id = `${prefix}${process.pid}${Date.now().toString(36)}${counter++}`;
  return { username: id, email: `${id}@example.com`, password: "blood moon rising" };
}

export async function register(page: Page, reader = newReader()) {
  await page.goto("/register");
  await page.getByLabel("Username").fill(reader.username);
  await page.getByLabel("Email").fill(reader.email);
  await page.getByLabel("Password", { exact: true }).fill(reader.password);
  await page.getByLabel("Confirm password").fill(reader.password);
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  // The form answers alike for every e-mail (ADR 16); the welcome e-mail's link leads to sign in and on to
  // the welcome page.
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  const mail = await outboxMessage(reader.email, "/login?redirectTo=%2Fwelcome");
  const link = /https?:\/\/[^/\s]+(\/login\?redirectTo=%2Fwelcome)/.exec(mail)?.[1];
  expect(link).toBeDefined();
  await login(page, reader, link);
  await expect(page).toHaveURL(/\/welcome$/);
  return reader;
}

export async function login(page: Page, reader: { email: string; password: string }, path = "/login") {
  if (path) await page.goto(path);
  await page.getByLabel("Email").fill(reader.email);
  await page.getByLabel("Password").fill(reader.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/**
 * The newest e-mail to `to` containing `containing`, in the server's outbox (the embedded default writes .eml
 * files there). A reader's first e-mail is the welcome one, so a later one is asked for by its content.
 */
export async function outboxMessage(to: string, containing = ""): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? "", "outbox");
  let found = "";
  await expect
    .poll(() => {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort().reverse() : [];
      for (const file of files) {
        const text = fs.readFileSync(path.join(outbox, file), "utf8");
        const decoded = text
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
        if (decoded.includes(`To: ${to}`) && decoded.includes(containing)) {
          found = decoded;
          return true;
        }
      }
      return false;
    })
    .toBe(true);
  return found;
}
