import type { Page, TestInfo } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The fundraiser's tiers and goals edited in the admin. They are shared by every page, so this runs in the
 * desktop project only, and puts everything back. It changes no campaign (the home page's figures and the
 * figures test read the campaign): the goal it creates is a monthly one, shown on /fundraiser for the
 * moment the test lasts, then deleted; no target of an existing goal is touched.
 */
const a = en.admin;

/** A new page's look at 1280 and 360 pixels wide, kept with the test's results. */
async function shots(page: Page, name: string, testInfo: TestInfo) {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-360.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-1280.png`), fullPage: true });
}

/** The perks of a tier as /fundraiser lists them. */
async function perksOn(page: Page, tier: string) {
  await page.goto("/fundraiser");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: tier }) });
  // The author's own perk lines, the card's first list (the second links the perks the tier adds).
  return card.getByRole("list").first().getByRole("listitem").allTextContents();
}

test("an author changes a tier's perks and adds a monthly goal: /fundraiser shows both, then both are put back", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "shared tiers and goals: one project only");
  test.setTimeout(150_000);
  const author = await register(page);
  await grantAuthor(author.email);
  const original = await perksOn(page, "Observer");
  expect(original).toEqual(["Early chapter access", "Discord role"]);

  // The tiers: the Observer's perks reordered and one added, from its own form.
  await page.goto("/admin");
  await page.getByRole("navigation", { name: a.sections }).getByRole("link", { name: a.nav.tiers }).click();
  await expect(page.getByRole("heading", { level: 1, name: a.tiers.title })).toBeVisible();
  await hydrated(page);
  await shots(page, "tiers", testInfo);
  const observer = page.getByRole("region", { name: "Observer" });
  await expect(observer.getByText(a.tiers.amountHint)).toBeVisible();
  const perks = observer.getByLabel(a.tiers.perks);
  await perks.fill(Array.from({ length: 13 }, (_, n) => `Perk ${n + 1}`).join("\n"));
  await observer.getByRole("button", { name: a.tiers.save.replace("{{tier}}", "Observer") }).click();
  await expect(observer.getByText(a.tiers.errors.perks)).toBeVisible();
  await perks.fill("Discord role\nA postcard from the Quarter\nEarly chapter access");
  await observer.getByRole("button", { name: a.tiers.save.replace("{{tier}}", "Observer") }).click();
  await expect(page.getByRole("region", { name: "Observer" }).getByRole("status")).toHaveText(a.site.saved);
  expect(await perksOn(page, "Observer")).toEqual([
    "Discord role",
    "A postcard from the Quarter",
    "Early chapter access",
  ]);

  // A monthly goal: an end before its start is refused and what was typed stays; then it is created.
  await page.goto("/admin");
  await page.getByRole("navigation", { name: a.sections }).getByRole("link", { name: a.nav.goals }).click();
  await expect(page.getByRole("heading", { level: 1, name: a.goals.title })).toBeVisible();
  await shots(page, "goals", testInfo);
  await page.getByRole("link", { name: a.goals.new }).click();
  await hydrated(page);
  const title = `Candles for the archive ${Date.now()}`;
  await page.getByLabel(a.goals.goalTitle, { exact: true }).fill(title);
  await page.getByLabel(a.goals.period, { exact: true }).selectOption({ label: a.goals.periods.monthly });
  await page.getByLabel(a.goals.target, { exact: true }).fill("1234");
  await page.getByLabel(a.goals.ends, { exact: true }).fill("2020-01-01T00:00");
  await page.getByLabel(a.goals.description, { exact: true }).fill("Wax, wicks and **patience**.");
  await page.getByRole("button", { name: a.goals.create }).click();
  await expect(page.getByText(a.goals.errors.ends)).toBeVisible();
  await expect(page.getByLabel(a.goals.goalTitle, { exact: true })).toHaveValue(title);
  await page.getByLabel(a.goals.ends, { exact: true }).fill("");
  await page.getByRole("button", { name: a.goals.create }).click();
  await expect(page.getByRole("status")).toHaveText(a.site.saved);
  await shots(page, "goal", testInfo);
  const editor = new URL(page.url()).pathname;

  await page.goto("/fundraiser");
  const goal = page.getByRole("region", { name: title });
  await expect(goal).toContainText(en.fundraiser.monthlyGoal);
  await expect(goal.locator("strong", { hasText: "patience" })).toBeVisible();
  await expect(
    page.getByRole("progressbar", { name: `${en.fundraiser.monthlyGoal}: ${title}` }),
  ).toHaveAttribute("aria-valuetext", /\/ Goal: \$1,234 /);

  // Put back: the goal deleted (the monthly goal is the demo's again), the perks as they were.
  await page.goto(editor);
  await hydrated(page);
  await page.getByLabel(a.goals.deleteConfirm).check();
  await page.getByRole("button", { name: a.goals.delete }).click();
  await expect(page.getByText(a.goals.deleted.replace("{{title}}", title))).toBeVisible();
  await page.goto("/fundraiser");
  await expect(page.getByRole("region", { name: title })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Keeping the lamps lit" })).toBeVisible();

  await page.goto("/admin/tiers");
  await hydrated(page);
  await page.getByRole("region", { name: "Observer" }).getByLabel(a.tiers.perks).fill(original.join("\n"));
  await page
    .getByRole("region", { name: "Observer" })
    .getByRole("button", { name: a.tiers.save.replace("{{tier}}", "Observer") })
    .click();
  await expect(page.getByRole("region", { name: "Observer" }).getByRole("status")).toHaveText(a.site.saved);
  expect(await perksOn(page, "Observer")).toEqual(original);
});
