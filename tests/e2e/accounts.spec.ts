import es from "../../app/i18n/locales/es.json" with { type: "json" };
import { login, outboxMessage, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

test.describe("a new reader's story", () => {
  test("register, welcome, dashboard, logout, protected redirect, sign in again", async ({ page }) => {
    const reader = await register(page);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(reader.username);
    await expect(page.getByText("+3 Coins")).toBeVisible();
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
    await expect(page.locator("#field-username-error")).toHaveText(text.username);
    await expect(page.locator("#field-email-error")).toHaveText(text.email);
    await expect(page.locator("#field-password-error")).toHaveText(text.password);
    await expect(page.locator("#field-confirmPassword-error")).toHaveText(text.confirm);
    await expect(page.locator("#field-acceptTerms-error")).toHaveText(text.terms);

    await page.goto("/login");
    await hydrated(page);
    await page.locator('input[name="email"]').fill("nope");
    await page.locator('input[name="password"]').fill("123");
    await page.locator('main form button[type="submit"]').click();
    await expect(page.locator("#field-email-error")).toHaveText(text.email);
    await expect(page.locator("#field-password-error")).toHaveText(text.password);
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
});
