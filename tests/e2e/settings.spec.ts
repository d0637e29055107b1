import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { login, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

test.use({ timezoneId: "Europe/Lisbon" });

test("/settings: reading preferences with a preview, time zone, e-mail choices and language", async ({
  page,
}, testInfo) => {
  await register(page);
  await page.goto("/account");
  await page
    .getByRole("navigation", { name: "Your account" })
    .getByRole("link", { name: "Settings" })
    .click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await hydrated(page);

  // The preview follows each choice before anything is saved; saving opens every chapter with it.
  const preview = page.getByTestId("reading-preview");
  await expect(preview).toHaveCSS("font-size", "16px");
  await page.getByRole("group", { name: "Font size" }).getByText("Large", { exact: true }).click();
  await page.getByText("Sans-serif", { exact: true }).click();
  await expect(preview).toHaveCSS("font-size", "18px");
  await page.getByRole("button", { name: "Save reading preferences" }).click();
  await expect(page.getByText("Your reading preferences are saved.")).toBeVisible();

  // The browser's zone is detected; the reader fixes another one.
  const zone = page.getByRole("region", { name: "Time zone" }).getByRole("combobox", { name: "Time zone" });
  await expect(zone).toHaveValue("");
  await expect(zone.locator("option").first()).toHaveText("Automatic (this device: Europe/Lisbon)");
  await zone.selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.getByText("Your time zone is saved.")).toBeVisible();
  await expect(page.getByTestId("time-zone-current")).toHaveText(
    "Your reading days and streaks are dated in Asia/Tokyo.",
  );

  await page.getByLabel("E-mail me when a new chapter is released").check();
  await page.getByRole("button", { name: "Save e-mail choices" }).click();
  await expect(page.getByText("Your e-mail choices are saved.")).toBeVisible();

  await page.screenshot({ path: testInfo.outputPath("settings.png"), fullPage: true });

  // All of it is the account's: a reload shows it, and a chapter opens in the saved settings.
  await page.reload();
  await expect(zone).toHaveValue("Asia/Tokyo");
  await expect(page.getByLabel("E-mail me when a new chapter is released")).toBeChecked();
  await expect(
    page.getByLabel("E-mail me account notices (membership, coins, supporter and achievement news)"),
  ).toBeChecked();
  await expect(zone).toHaveValue("Asia/Tokyo");
  await page.goto("/chapter/1");
  await expect(page.locator("html")).toHaveAttribute("data-font-size", "18");
  await expect(page.locator("html")).toHaveAttribute("data-font-family", "sans-serif");

  // Language and theme, in one form.
  await page.goto("/settings");
  const appearance = page.getByRole("region", { name: "Language and theme" });
  await appearance.getByRole("combobox", { name: "Language" }).selectOption("es");
  await appearance.getByLabel("Dark").check();
  await page.getByRole("button", { name: "Save language and theme" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ajustes");
  await expect(page.locator("html")).toHaveClass(/dark/);
});

test("/settings lists the devices signed in and signs one out", async ({ page, browser }) => {
  const reader = await register(page);
  const other = await browser.newContext({
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  });
  const phone = await other.newPage();
  await login(phone, reader);
  await expect(phone).toHaveURL(/\/account$/);

  await page.goto("/settings");
  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  const iphone = sessions.filter({ hasText: "Safari on iOS" });
  await expect(iphone).toContainText("Last active: Just now");
  await expect(sessions.filter({ hasText: "This device" })).toHaveCount(1);
  await iphone.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("That device has been signed out.")).toBeVisible();
  await expect(sessions).toHaveCount(1);

  await phone.goto("/account");
  await expect(phone).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
  await other.close();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms post and come back with their notices", async ({ page }) => {
    await register(page);
    await page.goto("/settings");
    await page
      .getByLabel("E-mail me account notices (membership, coins, supporter and achievement news)")
      .uncheck();
    await page.getByRole("button", { name: "Save e-mail choices" }).click();
    await expect(page.getByText("Your e-mail choices are saved.")).toBeVisible();
    await expect(
      page.getByLabel("E-mail me account notices (membership, coins, supporter and achievement news)"),
    ).not.toBeChecked();
    await page.getByText("Relaxed", { exact: true }).click();
    await page.getByRole("button", { name: "Save reading preferences" }).click();
    await expect(page.getByText("Your reading preferences are saved.")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-line-height", "2");
  });
});

test("/settings makes a private feed address to copy; a new one retires it", async ({
  page,
  request,
}, testInfo) => {
  await register(page);
  await page.goto("/settings#feed");
  await hydrated(page);
  const panel = page.getByRole("region", { name: en.settings.feed.title });
  await panel.getByRole("button", { name: en.settings.feed.create }).click();
  await expect(panel.getByText(en.settings.feed.created)).toBeVisible();
  const first = await panel.getByTestId("private-feed-url").inputValue();
  expect(first).toMatch(/\/feed\/private\/[\w-]{20,}$/);
  const feed = await request.get(first);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain("/chapter/1</id>");
  await panel.screenshot({ path: testInfo.outputPath("private-feed.png") });

  await panel.getByRole("button", { name: en.settings.feed.renew }).click();
  await expect(panel.getByTestId("private-feed-url")).not.toHaveValue(first);
  expect((await request.get(first)).status()).toBe(404);
});
