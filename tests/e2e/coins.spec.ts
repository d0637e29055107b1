import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const c = en.coins;
const p = en.payments;
const packButton = (coins: number) => c.buy_other.replace("{{count}}", String(coins));

test("a new reader unlocks a chapter, buys coins on the test provider's page, and a declined payment changes nothing", async ({
  page,
}, testInfo) => {
  await register(page);

  await page.goto("/chapter/4");
  await page.getByRole("button", { name: "Unlock for 1 coin" }).click();
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  await page.goto("/coins");
  await expect(page.getByTestId("coin-balance")).toHaveText("2");
  await page.goto("/chapter/4");
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  await page.reload();
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();

  await page.goto("/coins");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: c.title })).toBeVisible();
  await expect(page.getByTestId("coin-balance")).toHaveText("2");
  await expect(page.getByText("$0.99")).toBeVisible();
  await expect(page.getByText("$8.99")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("coins.png"), fullPage: true });

  // Buy 5 coins and approve on the test provider's page.
  await page.getByRole("button", { name: packButton(5) }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await expect(page.getByText(p.test.banner)).toBeVisible();
  await expect(page.getByText("$0.99")).toBeVisible();
  await hydrated(page);
  await page.screenshot({ path: testInfo.outputPath("test-payment.png"), fullPage: true });
  await page.getByRole("button", { name: p.test.approve }).click();
  await expect(page).toHaveURL(/\/coins\?payment=\d+$/);
  await expect(page.getByText(c.result.paid_other.replace("{{count}}", "5"))).toBeVisible();
  await expect(page.getByTestId("coin-balance")).toHaveText("7");

  // A second purchase, declined: the balance stays, and the reader is told so.
  await page.getByRole("button", { name: packButton(12) }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await page.getByRole("button", { name: p.test.decline }).click();
  await expect(page).toHaveURL(/\/coins\?payment=\d+$/);
  await expect(page.getByRole("alert")).toHaveText(c.result.declined);
  await expect(page.getByTestId("coin-balance")).toHaveText("7");
  await page.reload();
  await expect(page.getByTestId("coin-balance")).toHaveText("7");

  // The account shows the balance, the purchases and the tier.
  await page.goto("/account");
  await expect(page.getByTestId("coin-balance")).toHaveText("7");
  const history = page.getByTestId("purchase-history");
  await expect(history.getByRole("row")).toHaveCount(3);
  await expect(history).toContainText(p.status.paid);
  await expect(history).toContainText(p.status.failed);
  await expect(page.getByTestId("membership")).toContainText(en.tiers.free);
  await expect(page.getByRole("link", { name: en.membership.upgrade })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("account.png"), fullPage: true });
});

test("the test payment page works with the keyboard alone", async ({ page }) => {
  await register(page);
  await page.goto("/coins");
  await hydrated(page);
  const buy = page.getByRole("button", { name: packButton(5) });
  await buy.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await hydrated(page);
  await page.getByRole("button", { name: p.test.approve }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("coin-balance")).toHaveText("8");
});

test("a visitor sees the packs and is asked to sign in to buy", async ({ page }) => {
  await page.goto("/coins");
  await expect(
    page.getByRole("heading", { level: 2, name: c.packName_other.replace("{{count}}", "65") }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: packButton(5) })).toHaveCount(0);
  await page.getByRole("link", { name: c.signIn }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcoins|\/login\?redirectTo=\/coins/);
});
