import type { Locator, Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const c = en.cart;
// The checkout has regions of its own named for the cart: the bar is the last, fixed at the foot.
const bar = (page: Page) => page.getByRole("region", { name: c.bar.label, exact: true }).last();
const merchandise = (page: Page) => page.getByRole("region", { name: en.home.merchandise });

/** A tile's action (its last link or button) and how far its bottom sits above its card's. */
async function gapBelowAction(tile: Locator): Promise<number> {
  const card = await tile.boundingBox();
  const action = await tile.locator("a, button").last().boundingBox();
  if (!card || !action) throw new Error("a tile or its action is not laid out");
  return card.y + card.height - (action.y + action.height);
}

test("home's merchandise: Buy Now takes a piece to checkout, the Art Print to its page, the commission to its inquiry", async ({
  page,
}, testInfo) => {
  await register(page);
  await page.goto("/");
  await hydrated(page);
  const tiles = merchandise(page);
  await expect(tiles.getByRole("button", { name: `${c.add.button}: Bookmark Set (5pc)` })).toHaveCount(0);
  await expect(tiles.getByRole("link", { name: `${c.add.buyNow}: Art Print 11x17` })).toHaveAttribute(
    "href",
    "/shop/product/3",
  );
  await expect(tiles.getByRole("link", { name: `${en.shop.inquire}: Custom Commission` })).toHaveAttribute(
    "href",
    "/shop/product/6",
  );
  await tiles.screenshot({ path: testInfo.outputPath("home-merchandise.png") });

  await tiles.getByRole("button", { name: `${c.add.buyNow}: Bookmark Set (5pc)` }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByText("Bookmark Set (5pc)").first()).toBeVisible();
  await expect(bar(page)).toContainText("1 item · $15.00");
  // The bar does not offer the page the reader is on.
  await expect(bar(page).getByRole("link", { name: c.bar.checkout })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("checkout-after-buy-now.png"), fullPage: false });
});

test("every tile's button sits at the same height in its card, whatever the button (Add to cart, Choose a piece, Inquire)", async ({
  page,
}, testInfo) => {
  await page.goto("/shop");
  await hydrated(page);
  const tiles = page.locator("main article");
  await expect(tiles.first()).toBeVisible();
  const gaps = await Promise.all((await tiles.all()).map(gapBelowAction));
  expect(gaps.length).toBeGreaterThan(2);
  for (const gap of gaps) expect(Math.abs(gap - (gaps[0] ?? 0))).toBeLessThanOrEqual(0.5);
  await page.screenshot({ path: testInfo.outputPath("shop-tiles.png"), fullPage: true });
});

test("the product page says how many are in stock, not only that some are", async ({ page }) => {
  // The Limited Edition Box Set: 25 in the demo, fewer once other stories buy one; never under 10 here.
  await page.goto("/shop/product/4");
  await expect(page.getByText(/^\d+ in stock$/)).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Buy Now on home is a plain form that lands on checkout with the piece", async ({ page }) => {
    await register(page);
    await page.goto("/");
    await merchandise(page)
      .getByRole("button", { name: `${c.add.buyNow}: Poster 24x36` })
      .click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByText("Poster 24x36").first()).toBeVisible();
    await expect(bar(page)).toContainText("1 item · $30.00");
    await expect(bar(page).getByRole("link", { name: c.bar.checkout })).toHaveCount(0);
  });
});
