import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const c = en.cart;
const bar = (page: import("@playwright/test").Page) => page.getByRole("region", { name: c.bar.label });

/** Nothing sticks out sideways, down to a 360 px phone. */
async function noOverflow(page: import("@playwright/test").Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

test("a visitor fills the cart (Art Print x2 with a piece, Bookmark Set x1), and it survives signing up and in", async ({
  page,
  context,
}, testInfo) => {
  await page.goto("/shop/product/3");
  await hydrated(page);
  await expect(bar(page)).toHaveCount(0);
  const add = page.getByRole("button", { name: c.add.button, exact: true });
  // The piece is a required choice: the browser does not send the form without it.
  await add.click();
  await expect(page.getByText(c.add.added)).toHaveCount(0);
  const piece = page.getByLabel(c.add.piece);
  const firstPiece = await piece.locator("option:not([disabled])").first().getAttribute("value");
  await piece.selectOption(firstPiece ?? "");
  await page.getByLabel(c.add.quantity).selectOption("2");
  await add.click();
  await expect(page.getByText(c.add.added)).toBeVisible();
  await expect(bar(page)).toContainText("2 items · $50.00");
  await expect(page).toHaveURL(/\/shop\/product\/3$/);
  await page.screenshot({ path: testInfo.outputPath("art-print-added.png"), fullPage: false });

  await page.goto("/shop/product/1");
  await hydrated(page);
  await page.getByRole("button", { name: c.add.button, exact: true }).click();
  await expect(bar(page)).toContainText("3 items · $65.00");
  await expect(bar(page).getByRole("link", { name: c.bar.checkout })).toHaveAttribute("href", "/checkout");
  await noOverflow(page);
  // The bar covers none of the page: scrolled to the end, the last content ends above it.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const barTop = (await bar(page).boundingBox())?.y ?? 0;
  const footer = await page.locator("footer").last().boundingBox();
  expect((footer?.y ?? 0) + (footer?.height ?? 0)).toBeLessThanOrEqual(barTop + 1);
  await page.screenshot({ path: testInfo.outputPath("product-with-cart-bar.png"), fullPage: false });

  await page.goto("/shop");
  await hydrated(page);
  await expect(bar(page)).toContainText("3 items · $65.00");
  await noOverflow(page);
  await page.screenshot({ path: testInfo.outputPath("shop-with-cart-bar.png"), fullPage: true });

  // Registering, then signing in from the welcome e-mail: the visitor's cart becomes the reader's.
  await register(page);
  expect((await context.cookies()).find((cookie) => cookie.name === "cart")).toBeUndefined();
  await page.goto("/shop");
  await expect(bar(page)).toContainText("3 items · $65.00");
});

test("a tile adds a product sold as it is; the Art Print's tile leads to choosing a piece; an unknown product is a 404 with the way back", async ({
  page,
}) => {
  await page.goto("/shop?category=prints");
  await hydrated(page);
  await expect(page.getByRole("link", { name: `${c.add.choosePieceLink}: Art Print 11x17` })).toHaveAttribute(
    "href",
    "/shop/product/3",
  );
  await page.getByRole("button", { name: `${c.add.button}: Poster 24x36` }).click();
  await expect(bar(page)).toContainText("1 item · $30.00");
  await page.goto("/shop?category=limited");
  await expect(page.getByRole("link", { name: `${en.shop.inquire}: Custom Commission` })).toBeVisible();
  await page.goto("/shop/product/6");
  await expect(page.getByRole("link", { name: en.shop.inquire })).toHaveAttribute(
    "href",
    "/shop/product/6/inquire",
  );
  await expect(page.getByRole("button", { name: c.add.button, exact: true })).toHaveCount(0);
  const missing = await page.goto("/shop/product/9999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("link", { name: c.productNotFound.toShop })).toHaveAttribute("href", "/shop");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add to cart is a plain form: the server comes back to the page with the bar", async ({
    page,
  }, testInfo) => {
    await page.goto("/shop/product/3");
    const piece = page.getByLabel(c.add.piece);
    const firstPiece = await piece.locator("option:not([disabled])").first().getAttribute("value");
    await piece.selectOption(firstPiece ?? "");
    await page.getByLabel(c.add.quantity).selectOption("2");
    await page.getByRole("button", { name: c.add.button, exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/product\/3$/);
    await expect(bar(page)).toContainText("2 items · $50.00");
    await page.goto("/shop");
    await page.getByRole("button", { name: `${c.add.button}: Bookmark Set (5pc)` }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(bar(page)).toContainText("3 items · $65.00");
    await noOverflow(page);
    await page.screenshot({ path: testInfo.outputPath("shop-no-js.png"), fullPage: false });
  });

  test("a refused form says why, changes nothing and leads back", async ({ page }, testInfo) => {
    await page.goto("/shop/product/3");
    // As a browser that ignores `required` would send it: no piece.
    await page.getByLabel(c.add.piece).evaluate((select) => select.removeAttribute("required"));
    await page.getByRole("button", { name: c.add.button, exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(c.errors["variant-required"]);
    await noOverflow(page);
    await page.screenshot({ path: testInfo.outputPath("refused-no-js.png"), fullPage: false });
    await page.getByRole("link", { name: c.back }).click();
    await expect(page).toHaveURL(/\/shop\/product\/3$/);
    await expect(bar(page)).toHaveCount(0);
  });
});
