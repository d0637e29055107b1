import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, outboxMessage, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const m = en.admin.money;

/** A reader buys one Art Print of the first gallery piece on the test provider; answers the order's id. */
async function buyArtPrint(page: Page): Promise<number> {
  await page.goto("/shop/product/3");
  await hydrated(page);
  const piece = page.getByLabel(en.cart.add.piece);
  await piece.selectOption(
    (await piece.locator("option:not([disabled])").first().getAttribute("value")) ?? "",
  );
  await page.getByRole("button", { name: en.cart.add.button, exact: true }).click();
  await page.goto("/checkout");
  await page.getByLabel(en.checkout.address.name).fill("Ilse Marrow");
  await page.getByLabel(en.checkout.address.line1).fill("12 Lantern Row");
  await page.getByLabel(en.checkout.address.city).fill("New Lumen");
  await page.getByLabel(en.checkout.address.postalCode).fill("NL-1207");
  await page.getByLabel(en.checkout.address.country).selectOption("GB");
  await page.getByRole("button", { name: en.checkout.pay }).click();
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/orders\/\d+\?returned$/);
  return Number(/\/orders\/(\d+)\?returned$/.exec(page.url())?.[1]);
}

/**
 * The author's orders in the browser (ADR 43): an Art Print bought on the test provider is marked shipped
 * with a tracking number (the reader is e-mailed and sees it), then refunded through the provider: the order
 * is refunded and the membership days and spend it gave are taken back.
 */
test("an author ships a reader's Art Print with a tracking number, then refunds it", async ({
  page,
  browser,
}, testInfo) => {
  const context = await browser.newContext();
  const buyer = await context.newPage();
  const reader = await register(buyer);
  const orderId = await buyArtPrint(buyer);
  const number = `#${String(orderId).padStart(6, "0")}`;

  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/orders");
  await hydrated(page);
  await page.getByLabel(en.admin.orders.query).fill(reader.username);
  await page.getByRole("button", { name: en.admin.orders.filter }).click();
  await page.getByTestId("admin-orders").getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
  await hydrated(page);

  // The reader's Art Print gave them 60 days of Observer, and $25 spent.
  const readerPage = page.getByTestId("payment-summary").getByRole("link", { name: reader.username });
  const orderPage = page.url();
  await readerPage.click();
  await expect(page.getByTestId("reader-tier")).toContainText(en.tiers.observer);
  await page.goto(orderPage);
  await hydrated(page);

  const tracking = `RM${Date.now()}GB`;
  await page.getByLabel(m.carrier, { exact: true }).fill("Royal Mail");
  await page.getByLabel(m.tracking, { exact: true }).fill(tracking);
  await page.getByLabel(m.confirmShip).check();
  await page.getByRole("button", { name: m.ship }).click();
  await expect(page.getByText(m.done.ship)).toBeVisible();
  await expect(page.getByTestId("admin-order-status")).toContainText(en.orders.statuses.shipped);
  await page.screenshot({ path: testInfo.outputPath("admin-order-shipped.png"), fullPage: true });

  // The reader gets the e-mail and sees the order shipped with its number.
  const mail = await outboxMessage(reader.email, tracking);
  expect(mail).toContain("Royal Mail");
  await buyer.goto(`/orders/${orderId}`);
  await expect(buyer.getByTestId("order-status")).toContainText(en.orders.statuses.shipped);
  await expect(buyer.getByTestId("order-shipped")).toContainText(tracking);

  // The refund, confirmed: all of it, through the test provider's refund event.
  await page.getByLabel(m.note, { exact: true }).fill("Lost in the post");
  await page.getByLabel(m.confirmRefund).check();
  await page.getByRole("button", { name: m.refund }).click();
  await expect(page.getByText(m.done.refund)).toBeVisible();
  await expect(page.getByTestId("admin-order-status")).toContainText(en.orders.statuses.refunded);
  await expect(page.getByTestId("payment-refunded")).toHaveText("$25");
  await expect(page.getByText(m.notRefundable)).toBeVisible();
  await page.getByTestId("payment-summary").getByRole("link", { name: reader.username }).click();
  await expect(page.getByTestId("reader-tier")).toContainText(en.tiers.free);
  await buyer.reload();
  await expect(buyer.getByTestId("order-status")).toContainText(en.orders.statuses.refunded);
  await context.close();

  // The overview: its charts are images with a name, and their figures open as a table by keyboard.
  await page.goto("/admin");
  await hydrated(page);
  const shop = page.getByTestId("overview-revenue").getByRole("link").nth(1);
  await expect(shop).toHaveAttribute("href", "/admin/payments?kind=product");
  await expect(page.getByRole("img", { name: "Readers a day" })).toBeVisible();
  const revenue = page.getByRole("img", { name: "Revenue by source (USD)" });
  await expect(revenue).toBeVisible();
  const table = page.locator("figure").filter({ has: revenue }).locator("details");
  await table.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(table.getByRole("rowheader", { name: en.admin.money.kinds.product })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-overview.png"), fullPage: true });
});
