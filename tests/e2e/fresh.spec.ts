import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { expect, test } from "../support/fixtures";

/**
 * The demo's figures as a fresh start shows them. This file runs alone, before every other browser test
 * (playwright.config.ts: the "fresh" project), since those change the figures (a gift, a subscription).
 */

const s = en.supporters;

test.describe.configure({ timeout: 90_000 });

test("fresh start: the campaign at $6,500 of $10,000 (65 %) and 127 supporters on three pages", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByText("Current: $6,500 / Goal: $10,000")).toBeVisible();
  const bar = page.getByRole("progressbar", { name: "Volume 2 illustrated edition" });
  await expect(bar).toHaveAttribute("aria-valuenow", "65");
  await expect(bar).toHaveAttribute("aria-valuetext", "Current: $6,500 / Goal: $10,000 (65%)");
  await expect(bar.locator("div")).toHaveAttribute("style", /^width: ?65%;?$/);
  await expect(page.getByTestId("supporter-list").getByRole("listitem")).toHaveCount(3);
  await page.getByRole("link", { name: "View All 127 Supporters" }).click();
  await expect(page).toHaveURL(/\/fundraiser\/supporters$/);
  await expect(page.getByText("127 supporters listed, newest first.")).toBeVisible();
  await expect(page.getByTestId("supporter-list").getByRole("listitem")).toHaveCount(50);
  const pages = page.getByRole("navigation", { name: s.pagesLabel });
  await expect(pages.getByRole("link", { name: "Page 3" })).toBeVisible();
  await expect(pages.getByRole("link", { name: "Page 4" })).toHaveCount(0);
  await pages.getByRole("link", { name: "Page 3" }).click();
  await expect(page).toHaveURL(/\/fundraiser\/supporters\?page=3$/);
  await expect(page.getByTestId("supporter-list").getByRole("listitem")).toHaveCount(27);
  await page
    .getByRole("navigation", { name: s.filterLabel })
    .getByRole("link", { name: s.tiers.Founder })
    .click();
  await expect(page).toHaveURL(/\/fundraiser\/supporters\?tier=Founder$/);
  await expect(
    page.getByRole("navigation", { name: s.filterLabel }).getByRole("link", { name: s.tiers.Founder }),
  ).toHaveAttribute("aria-current", "page");
  const labels = await page.getByTestId("supporter-list").getByRole("listitem").allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).toContain(s.tiers.Founder);
});
