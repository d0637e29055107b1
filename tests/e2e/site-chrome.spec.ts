import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/** The site's chrome: the menu without JavaScript, the way into the admin, the reader's bars on a phone. */
test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the menu button leads to the footer's sections, and from there to the shop, the fundraiser and sign-in", async ({
    page,
  }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Open menu" }).click();
    await expect(page).toHaveURL(/#site-nav$/);
    const sections = page.locator("footer nav");
    await expect(sections).toBeInViewport();
    for (const name of ["Chapters/TOC", "World Building", "Shop", "Fundraiser", "Login", "Terms of Service"])
      await expect(sections.getByRole("link", { name, exact: true })).toBeVisible();

    await sections.getByRole("link", { name: "Shop", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
    await page.locator("footer nav").getByRole("link", { name: "Fundraiser", exact: true }).click();
    await expect(page).toHaveURL(/\/fundraiser$/);
    await page.locator("footer nav").getByRole("link", { name: "Login", exact: true }).click();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  });
});

test("with JavaScript the menu button opens the menu where it was, and the footer stays after a navigation", async ({
  page,
}) => {
  await page.goto("/about");
  await hydrated(page);
  await page.getByRole("link", { name: "Open menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
  await expect(page).toHaveURL(/\/about$/);
  await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Shop", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
  await expect(
    page.locator("footer nav").getByRole("link", { name: "Fundraiser", exact: true }),
  ).toBeVisible();
});

test("an author finds the admin in the side menu and on the account page; a reader does not", async ({
  page,
}) => {
  const reader = await register(page);
  for (const path of ["/account", "/chapter/1"]) {
    await page.goto(path);
    await hydrated(page);
    await page.getByRole("link", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu.getByRole("link", { name: "My Account", exact: true })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
  }
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);

  // The operator makes the reader an author: the next page shows the way in.
  await grantAuthor(reader.email);
  // The server learns of the new role from its session events, polled every 250 ms (ADR 49): a page asked for
  // before then is still the reader's, so ask again until the way in shows.
  const adminLink = page
    .getByRole("dialog", { name: "Menu" })
    .getByRole("link", { name: "Admin", exact: true });
  await expect(async () => {
    await page.goto("/chapter/1");
    await hydrated(page);
    await page.getByRole("link", { name: "Open menu" }).click();
    await expect(adminLink).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await adminLink.click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.goto("/account");
  await page.getByRole("main").getByRole("link", { name: "Admin", exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test("on a phone the chapter's bars slide away while reading down and come back on a scroll up or the keyboard", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "the bars stay on a wider screen");
  await page.goto("/chapter/1");
  await hydrated(page);
  const bars = page.locator(".site-header, .reader-header");
  const hidden = () =>
    bars.evaluateAll((elements) => elements.every((element) => element.getBoundingClientRect().bottom <= 0));
  expect(await hidden()).toBe(false);

  await page.mouse.wheel(0, 1200);
  await expect.poll(hidden).toBe(true);
  await page.mouse.wheel(0, -300);
  await expect.poll(hidden).toBe(false);

  await page.mouse.wheel(0, 1200);
  await expect.poll(hidden).toBe(true);
  // The keyboard reaches the reader's tools: they show again.
  await page.locator(".reader-header a").first().focus();
  await expect
    .poll(() => page.locator(".reader-header").evaluate((e) => e.getBoundingClientRect().top >= 0))
    .toBe(true);
});
