import { expect, hydrated, test } from "../support/fixtures";

test("the title follows client navigations, to a 404 and back, with one <title> in the head", async ({
  page,
}) => {
  await page.goto("/shop");
  await hydrated(page);
  await expect(page).toHaveTitle("Shop · Crimson Covenant");
  await page.getByRole("link", { name: "Open menu" }).click();
  await page
    .getByRole("dialog", { name: "Menu" })
    .getByRole("link", { name: "Fundraiser", exact: true })
    .click();
  await expect(page).toHaveURL(/\/fundraiser$/);
  // The URL moves when the navigation commits; the new page's title follows with its render.
  await expect(page).not.toHaveTitle("Shop · Crimson Covenant");
  await expect(page).toHaveTitle(/ · Crimson Covenant$/);
  await page.getByRole("link", { name: "Crimson Covenant", exact: true }).first().click();
  await expect(page).toHaveTitle(/^Crimson Covenant — /);
  await page.getByRole("link", { name: "Start Reading Chapter 1" }).click();
  await expect(page).toHaveTitle(/^1\. /);
  await page.goto("/no/such/page");
  await hydrated(page);
  await expect(page).toHaveTitle("Page not found · Crimson Covenant");
  await page.getByRole("link", { name: "Table of Contents" }).click();
  await expect(page).toHaveURL(/\/toc$/);
  await expect(page).toHaveTitle("Table of Contents · Crimson Covenant");
  await expect(page.locator("title")).toHaveCount(1);
});

test("/chapter opens chapter 1 for a visitor", async ({ page }) => {
  await page.goto("/chapter");
  await expect(page).toHaveURL(/\/chapter\/1$/);
});
