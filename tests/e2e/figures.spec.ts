import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The fundraiser's figures moved by real payments, to the cent. This file runs alone (playwright.config.ts:
 * the "figures" project, after "fresh" and before every other test), one test after the other, so no other
 * payment moves a figure between a test's "before" and "after".
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const f = en.fundraiser;
const s = en.supporters;
const g = en.gifts;
const p = en.payments;
const sub = en.subscriptions;

const dollars = (cents: number) =>
  new Intl.NumberFormat("en", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  }).format(cents / 100);

const cents = (text: string) =>
  Math.round(Number((/Current: \$([\d,.]+)/.exec(text)?.[1] ?? "").replaceAll(",", "")) * 100);

/** The campaign's "Current: $X" in cents, as the home page shows it. */
async function campaignRaised(page: Page): Promise<number> {
  await page.goto("/");
  return cents((await page.getByText(/^Current: \$[\d,.]+ \/ Goal: \$10,000$/).textContent()) ?? "");
}

/** Both goals' "Current" in cents, from the progress bars on /fundraiser (what a screen reader hears). */
async function goalsRaised(page: Page): Promise<{ campaign: number; monthly: number }> {
  await page.goto("/fundraiser");
  const raised = async (name: string) =>
    cents((await page.getByRole("progressbar", { name }).getAttribute("aria-valuetext")) ?? "");
  return {
    campaign: await raised("Volume 2 illustrated edition"),
    monthly: await raised("Keeping the lamps lit"),
  };
}

/** N in the home page's "View All N Supporters". */
async function listedCount(page: Page): Promise<number> {
  await page.goto("/");
  const text = (await page.getByRole("link", { name: /^View All \d+ Supporters$/ }).textContent()) ?? "";
  return Number(/\d+/.exec(text)?.[0]);
}

async function screenshot(page: Page, name: string, testInfo: { outputPath: (name: string) => string }) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test("a new reader joins Analyst: tier and renewal date on the account, first on the wall, both goals up by $7", async ({
  page,
}) => {
  const reader = await register(page);
  const before = await goalsRaised(page);
  const count = await listedCount(page);
  const name = `Night Analyst ${reader.username.slice(-6)}`;

  await page.goto("/fundraiser");
  await hydrated(page);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Analyst" }) });
  await card.getByText(s.choice.summary).click();
  await card.getByLabel(s.choice.displays.name).check();
  await card.getByLabel(s.choice.displayName, { exact: true }).fill(name);
  await card.locator("label", { hasText: "🦇" }).click();
  await card.getByRole("button", { name: f.join.replace("{{tier}}", "Analyst") }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/, { timeout: 15_000 });
  await expect(page.getByText("$7", { exact: true })).toBeVisible();
  await hydrated(page);
  await page.getByRole("button", { name: p.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  await page.goto("/account");
  await expect(page.getByTestId("membership")).toContainText("Analyst");
  const panel = page.getByRole("region", { name: sub.panelTitle });
  await expect(panel.getByTestId("subscription-tier")).toHaveText("Analyst");
  await expect(panel.getByTestId("subscription-when")).toContainText(/\d{4}/);

  // The kept pages are rendered again once the wall changed (the content revision moves).
  await expect(async () => {
    const after = await goalsRaised(page);
    expect(after).toEqual({ campaign: before.campaign + 700, monthly: before.monthly + 700 });
  }).toPass();
  const newest = page.getByTestId("supporter-list").getByRole("listitem").first();
  await expect(newest).toContainText(name);
  await expect(newest).toContainText("🦇");
  expect(await listedCount(page)).toBe(count + 1);
});

test("a new reader gives $12.34 as Anonymous: thanked, the progress rises by $12.34, no name in the pages", async ({
  page,
  request,
}, testInfo) => {
  const reader = await register(page);
  const before = await campaignRaised(page);
  const count = await listedCount(page);

  await page.goto("/fundraiser");
  await hydrated(page);
  const form = page.getByRole("region", { name: g.heading });
  await form.getByLabel(g.custom).fill("12.34");
  await form.getByLabel(s.choice.displays.anonymous).check();
  await form.locator("label", { hasText: "🦇" }).click();
  await form.getByLabel(s.choice.message).fill("From the shadows <b>");
  await form.getByRole("button", { name: g.give }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/, { timeout: 15_000 });
  await expect(page.getByText("$12.34")).toBeVisible();
  await hydrated(page);
  await page.getByRole("button", { name: p.test.approve }).click();

  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: g.thanks.title })).toBeVisible();
  await expect(page.getByText(g.thanks.paid.replace("{{what}}", "a one-off gift of $12.34"))).toBeVisible();
  await expect(page.getByRole("region", { name: g.thanks.choiceTitle })).toContainText(
    s.choice.displays.anonymous,
  );
  await screenshot(page, "thanks", testInfo);

  // The wall changed (the content revision moved): the kept pages are rendered again within a second or so.
  await expect(async () => expect(await campaignRaised(page)).toBe(before + 1234)).toPass();
  await expect(page.getByText(`Current: ${dollars(before + 1234)} / Goal: $10,000`)).toBeVisible();
  await expect(page.getByRole("link", { name: `View All ${count + 1} Supporters` })).toBeVisible();
  const newest = page.getByTestId("supporter-list").getByRole("listitem").first();
  await expect(newest).toContainText(s.anonymous);
  await expect(newest).toContainText("From the shadows <b>");

  // As a visitor and as the reader: the username appears nowhere in the HTML (route data included).
  for (const path of ["/", "/fundraiser", "/fundraiser/supporters", "/fundraiser/supporters?tier=gift"]) {
    const html = await (await request.get(path)).text();
    expect(html).toContain("From the shadows &lt;b&gt;");
    expect(html).not.toContain(reader.username);
  }
  await page.goto("/fundraiser/supporters");
  expect(await page.content()).not.toContain(reader.username);

  // The account: how they appear, and the gift in their history.
  await page.goto("/account");
  await expect(
    page.getByRole("region", { name: s.account.title }).getByLabel(s.choice.displays.anonymous),
  ).toBeChecked();
  await expect(page.getByTestId("gift-history")).toContainText("$12.34");
  await expect(page.getByTestId("gift-history")).toContainText(g.history.statuses.paid);

  // The wall form's checks load when it is first used (zod is not on the account page until then): a
  // display name left empty is refused in the page, and nothing is sent.
  const wall = page.getByRole("region", { name: s.account.title });
  await hydrated(page);
  await expect(wall.locator("form[data-checks]")).toHaveCount(0);
  await wall.getByLabel(s.choice.displays.name).check();
  await expect(wall.locator('form[data-checks="ready"]')).toHaveCount(1);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await wall.getByLabel(s.choice.displayName, { exact: true }).fill("");
  await wall.getByRole("button", { name: s.account.save }).click();
  await expect(wall.getByText(s.errors.nameRequired)).toBeVisible();
  expect(posts).toEqual([]);
  await page.getByRole("region", { name: s.account.title }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("account.png") });
});
