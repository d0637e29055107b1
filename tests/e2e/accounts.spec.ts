import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import es from "../../app/i18n/locales/es.json" with { type: "json" };
import {
  confirmEmail,
  fillRegistration,
  login,
  newReader,
  outboxMessage,
  register,
  submitRegistration,
} from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/** The banner of a reader whose address is not confirmed yet (ADR 56). */
const banner = (page: import("@playwright/test").Page) =>
  page.getByRole("note").filter({ hasText: "Please confirm your e-mail address" });

test.describe("a new reader's story", () => {
  test("register, welcome, dashboard, logout, protected redirect, sign in again", async ({
    page,
  }, testInfo) => {
    // Registration signs the reader in and lands on /welcome with the welcome coins (no second sign-in).
    const reader = await register(page);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(reader.username);
    await expect(page.getByText("+3 Coins")).toBeVisible();
    await expect(banner(page)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("welcome.png"), fullPage: true });
    // Shown again later, the page welcomes without announcing the coins a second time.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(reader.username);
    await expect(page.getByText("+3 Coins")).toHaveCount(0);

    await page.getByRole("link", { name: "View Dashboard" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("coin-balance")).toHaveText("3");
    await expect(page.getByText(reader.email)).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await login(page, reader, "");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("coin-balance")).toHaveText("3");
  });

  test("the welcome e-mail confirms the address: the banner goes, and a new e-mail can be asked for meanwhile", async ({
    page,
  }, testInfo) => {
    const reader = await register(page);
    await hydrated(page);
    await banner(page).getByRole("link").click();
    await expect(page).toHaveURL(/\/confirm-email$/);
    await expect(page.getByText(`We sent a confirmation link to ${reader.email}.`)).toBeVisible();
    await expect(page.getByText(en.auth.confirm.until)).toBeVisible();
    await page.getByRole("button", { name: en.auth.confirm.resend }).click();
    await expect(page.getByRole("status").filter({ hasText: "A new confirmation e-mail" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("confirm-pending.png"), fullPage: true });

    // The newest e-mail's link confirms; the banner is gone from every page.
    const mail = await outboxMessage(reader.email, "Subject: Confirm your");
    const link = /https?:\/\/[^/\s]+(\/confirm-email\?token=[\w-]+)/.exec(mail)?.[1] ?? "";
    await page.goto(link);
    await hydrated(page);
    await page.getByRole("button", { name: en.auth.confirm.submit }).click();
    await expect(page.getByText(en.auth.confirm.done)).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("confirmed.png"), fullPage: true });
    await page.goto("/toc");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test("an address that has an account is told so, with the ways to sign in and to reset the password", async ({
    page,
  }, testInfo) => {
    const reader = await register(page);
    await page.context().clearCookies();
    await fillRegistration(page, { ...newReader(), email: reader.email });
    const alert = page.getByRole("alert").filter({ hasText: "already exists" });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
    await page.screenshot({ path: testInfo.outputPath("account-exists.png"), fullPage: true });
    await alert.getByRole("link", { name: "choose a new password" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.goBack();
    await fillRegistration(page, { ...newReader(), email: reader.email });
    await page.getByRole("alert").getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The address bar moves before the sign-in form replaces the registration one: wait for the form.
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await login(page, reader, "");
    await expect(page).toHaveURL(/\/account$/);
  });

  test("a wrong password gets the red box; the side menu shows Logout once signed in", async ({ page }) => {
    const reader = await register(page);
    await page.getByRole("link", { name: "Open menu" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await login(page, { email: reader.email, password: "not the password" });
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await login(page, { email: `nobody-${reader.email}`, password: "not the password" });
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  });
});

const messages = {
  en: {
    email: "Invalid email address",
    password: "Password must be at least 6 characters",
    username: "Username must be at least 3 characters",
    confirm: "Passwords don't match",
    terms: "You must accept the terms and conditions",
  },
  es: {
    email: es.validation.email,
    password: es.validation.passwordMin,
    username: es.validation.usernameMin,
    confirm: es.validation.passwordsMatch,
    terms: es.validation.acceptTerms,
  },
};

/** The error message a field names in its aria-describedby (its ids are unique per field, not fixed). */
async function errorBeside(page: Page, name: string) {
  const field = page.locator(`main form [name="${name}"]`);
  await expect(field).toHaveAttribute("aria-describedby", /-error\b/);
  const errorId = (await field.getAttribute("aria-describedby"))
    ?.split(" ")
    .find((id) => id.endsWith("-error"));
  return page.locator(`[id="${errorId}"]`);
}

for (const lang of ["en", "es"] as const) {
  test(`every validation message shows beside its field (${lang})`, async ({ page, prefer }) => {
    await prefer({ lang });
    const text = messages[lang];
    await page.goto("/register");
    await hydrated(page);
    await page.locator('input[name="username"]').fill("ab");
    await page.locator('input[name="email"]').fill("not-an-email");
    await page.locator('input[name="password"]').fill("12345");
    await page.locator('input[name="confirmPassword"]').fill("54321");
    await page.locator('main form button[type="submit"]').click();
    await expect(await errorBeside(page, "username")).toHaveText(text.username);
    await expect(await errorBeside(page, "email")).toHaveText(text.email);
    await expect(await errorBeside(page, "password")).toHaveText(text.password);
    await expect(await errorBeside(page, "confirmPassword")).toHaveText(text.confirm);
    await expect(await errorBeside(page, "acceptTerms")).toHaveText(text.terms);

    await page.goto("/login");
    await hydrated(page);
    await page.locator('input[name="email"]').fill("nope");
    await page.locator('input[name="password"]').fill("123");
    await page.locator('main form button[type="submit"]').click();
    await expect(await errorBeside(page, "email")).toHaveText(text.email);
    await expect(await errorBeside(page, "password")).toHaveText(text.password);
  });
}

test("password reset end to end, reading the link from the outbox", async ({ page }) => {
  const reader = await register(page);
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(reader.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "If an account exists" })).toBeVisible();
  const mail = await outboxMessage(reader.email, "/reset-password?token=");
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
  expect(link).toBeDefined();
  await page.goto(link ?? "");
  await page.getByLabel("New password").fill("a brand new secret");
  await page.getByLabel("Confirm password").fill("a brand new secret");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page).toHaveURL(/\/account$/);
  // The link works once.
  await page.goto(link ?? "");
  await expect(page.getByRole("alert")).toContainText("invalid or has expired");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("registration, sign-in, logout and reset work", async ({ page }) => {
    const reader = await register(page);
    await expect(page.getByText("+3 Coins")).toBeVisible();
    await expect(banner(page)).toBeVisible();
    await page.goto("/account");
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await login(page, reader);
    await expect(page).toHaveURL(/\/account$/);
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(reader.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    const link =
      /http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]+/.exec(
        await outboxMessage(reader.email, "/reset-password?token="),
      )?.[0] ?? "";
    await page.goto(link);
    await page.getByLabel("New password").fill("no script needed");
    await page.getByLabel("Confirm password").fill("no script needed");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await login(page, { email: reader.email, password: "no script needed" });
    await expect(page).toHaveURL(/\/account$/);
  });

  test("registration signs in, an address with an account is told so, and the e-mail's link confirms", async ({
    page,
  }, testInfo) => {
    const reader = newReader();
    await submitRegistration(page, reader);
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByText("+3 Coins")).toBeVisible();
    await expect(banner(page)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("welcome-no-script.png"), fullPage: true });
    await confirmEmail(page, reader);
    await expect(banner(page)).toHaveCount(0);

    await page.context().clearCookies();
    await fillRegistration(page, { ...newReader(), email: reader.email });
    await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
    await expect(page.getByRole("alert").getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/login",
    );
    await expect(page.getByText("+3 Coins")).toHaveCount(0);
  });
});
