import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const f = en.fundraiser;
const s = en.supporters;
const g = en.gifts;
const p = en.payments;

// The figures a payment moves are asserted in tests/e2e/figures.spec.ts, alone; here nothing is paid.
test.describe.configure({ timeout: 90_000 });

async function screenshot(page: Page, name: string, testInfo: { outputPath: (name: string) => string }) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test("joining Analyst reaches the test provider's page at $7; a visitor is sent to sign in, back to /fundraiser", async ({
  page,
}) => {
  await page.goto("/fundraiser");
  await hydrated(page);
  const join = page.getByRole("button", { name: f.join.replace("{{tier}}", "Analyst") });
  await join.click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Ffundraiser$/);

  await register(page);
  await page.goto("/fundraiser");
  await hydrated(page);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Analyst" }) });
  await card.getByText(s.choice.summary).click();
  await card.getByLabel(s.choice.displays.name).check();
  await card.getByLabel(s.choice.displayName, { exact: true }).fill("Night Analyst");
  await card.getByRole("button", { name: f.join.replace("{{tier}}", "Analyst") }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/, { timeout: 15_000 });
  await expect(page.getByText("$7", { exact: true })).toBeVisible();
});

test("each tier card says where its perks live, under the one rule for all perks", async ({ page }) => {
  await page.goto("/fundraiser");
  await expect(page.getByTestId("perk-rule")).toHaveText(en.perks.rule);
  const card = page.getByTestId("tier-analyst");
  await expect(card.getByRole("link", { name: en.perks.items.monthly_qa.name })).toHaveAttribute(
    "href",
    "/qa",
  );
  await expect(card.getByRole("link", { name: en.perks.items.art_votes.name })).toHaveAttribute(
    "href",
    "/polls",
  );
  await expect(page.getByTestId("tier-first_human").getByTestId("perk-links").getByRole("link")).toHaveCount(
    2,
  );
});

test("a gift amount out of range is refused with a message, with and without JavaScript", async ({
  page,
  browser,
}) => {
  await register(page);
  await page.goto("/fundraiser");
  await hydrated(page);
  const form = page.getByRole("region", { name: g.heading });
  await form.getByLabel(g.custom).fill("1000.01");
  await form.getByRole("button", { name: g.give }).click();
  await expect(
    form.getByText(g.errors.amountRange.replace("{{min}}", "$1").replace("{{max}}", "$1,000")),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/fundraiser$/);

  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noScript.newPage();
  await plain.goto("/fundraiser");
  const plainForm = plain.getByRole("region", { name: g.heading });
  await plainForm.getByLabel(g.custom).fill("abc");
  await plainForm.getByRole("button", { name: g.give }).click();
  await expect(plainForm.getByText(g.errors.amountFormat)).toBeVisible();
  await plainForm.getByLabel(g.custom).fill("5");
  await plainForm.getByRole("button", { name: g.give }).click();
  await expect(plain).toHaveURL(/\/pay\/test\/tps_/, { timeout: 15_000 });
  await noScript.close();
});

test("screenshots: home, /fundraiser, the wall and a declined gift's thank-you page", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  await page.getByRole("region", { name: en.home.fundraiserGoals }).scrollIntoViewIfNeeded();
  await screenshot(page, "home", testInfo);
  await page.goto("/fundraiser");
  await hydrated(page);
  await screenshot(page, "fundraiser", testInfo);
  await page.goto("/fundraiser/supporters?page=2");
  await screenshot(page, "supporters", testInfo);

  // A gift declined at the provider: the thank-you page says nothing was charged (no figure moves).
  await register(page);
  await page.goto("/fundraiser");
  await hydrated(page);
  const form = page.getByRole("region", { name: g.heading });
  await form.getByText("$25").click();
  await form.getByRole("button", { name: g.give }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/, { timeout: 15_000 });
  await hydrated(page);
  await page.getByRole("button", { name: p.test.decline }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: g.thanks.notPaidTitle })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText(g.thanks.declined);
  await screenshot(page, "thanks-declined", testInfo);
});
