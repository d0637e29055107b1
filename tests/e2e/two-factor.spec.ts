import { grantAuthor, login, outboxMessage, register } from "../support/browser";
import { expect, test } from "../support/fixtures";

/**
 * An author's sign-in on a browser the account was never used on (ADR 65): the password is not enough, the
 * code e-mailed to them is asked for, and only the right one opens the admin.
 */
test("an author signing in on a new device enters the e-mailed code before the admin opens", async ({
  page,
  browser,
}, testInfo) => {
  const author = await register(page);
  await grantAuthor(author.email);
  // The browser it registered on is known: the admin opens as before.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const elsewhere = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const other = await elsewhere.newPage();
  try {
    await login(other, author);
    await expect(other).toHaveURL(/\/login\/verify$/);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Confirm it's you");
    const mail = await outboxMessage(author.email, "sign-in code");
    const code = /code: (\d{6})/.exec(mail)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    await other.screenshot({ path: testInfo.outputPath("verify-360.png"), fullPage: true });

    // A wrong code: refused, and still no session (the admin is the site's 404).
    await other.getByLabel("Code from the e-mail").fill(code === "123456" ? "654321" : "123456");
    await other.getByRole("button", { name: "Continue" }).click();
    await expect(other.getByRole("alert")).toHaveText("That did not match. Please try again.");
    const admin = await other.request.get("/admin");
    expect(admin.status()).toBe(404);

    await other.getByLabel("Code from the e-mail").fill(code);
    await other.getByRole("button", { name: "Continue" }).click();
    await expect(other).toHaveURL(/\/account$/);
    await other.goto("/admin");
    await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await other.request.get("/admin")).status()).toBe(200);
  } finally {
    await elsewhere.close();
  }
});

test("without scripts: a reader signs in with the password alone, an author's e-mailed code form still works", async ({
  browser,
}) => {
  const setup = await browser.newContext();
  const setupPage = await setup.newPage();
  const reader = await register(setupPage);
  await setup.close();
  const setupAuthor = await browser.newContext();
  const author = await register(await setupAuthor.newPage());
  await grantAuthor(author.email);
  await setupAuthor.close();
  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScripts.newPage();
  try {
    await login(page, reader);
    await expect(page).toHaveURL(/\/account$/);
    await noScripts.clearCookies();
    await login(page, author);
    await expect(page).toHaveURL(/\/login\/verify$/);
    const code = /code: (\d{6})/.exec(await outboxMessage(author.email, "sign-in code"))?.[1] ?? "";
    await page.getByLabel("Code from the e-mail").fill(code);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/account$/);
  } finally {
    await noScripts.close();
  }
});

test("a reader turns on an authenticator app on /settings/security, then signs in with its code", async ({
  page,
}, testInfo) => {
  const { Secret, TOTP } = await import("otpauth");
  const reader = await register(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/settings");
  await page.getByRole("link", { name: "Manage sign-in security" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const key = (await page.getByTestId("totp-secret").textContent())?.replace(/\s/g, "") ?? "";
  const app = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 });
  // A code from another time does not turn it on.
  await page.getByLabel("Code from the app").fill(app.generate({ timestamp: Date.now() - 600_000 }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("This code is not right (or has expired): try the newest one")).toBeVisible();
  await page.getByLabel("Name (optional)").fill("My phone");
  await page.getByLabel("Code from the app").fill(app.generate());
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("The authenticator app is on.")).toBeVisible();
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await page.screenshot({ path: testInfo.outputPath("security-360.png"), fullPage: true });

  // Signing in again asks for the app's code (the next step's: the first is used up).
  await page.context().clearCookies();
  await login(page, reader);
  await expect(page).toHaveURL(/\/login\/verify$/);
  await page
    .getByLabel("Code from your authenticator app")
    .fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/account$/);
});
