import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, outboxMessage, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const m = en.admin.money;

/**
 * A reader buys two signed books ($90) and is thanked on the return from paying; the author refunds $45 of
 * it. The reader sees the refund on the order's page and on the account, without the thanks, with one
 * book's membership days taken back, and is e-mailed why.
 */
test("a reader sees the author's partial refund on the order page and the account", async ({
  page,
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const buyer = await context.newPage();
  const reader = await register(buyer);
  await buyer.goto("/shop/product/2");
  await hydrated(buyer);
  await expect(buyer.getByTestId("membership-days-rule")).toHaveText(en.shop.membershipDaysRule);
  const add = buyer.getByRole("button", { name: en.cart.add.button, exact: true });
  await add.click();
  await expect(buyer.getByText("1 item · $45.00")).toBeVisible();
  await add.click();
  await expect(buyer.getByText("2 items · $90.00")).toBeVisible();
  await buyer.goto("/checkout");
  await buyer.getByLabel(en.checkout.address.name).fill("Ilse Marrow");
  await buyer.getByLabel(en.checkout.address.line1).fill("12 Lantern Row");
  await buyer.getByLabel(en.checkout.address.city).fill("New Lumen");
  await buyer.getByLabel(en.checkout.address.postalCode).fill("NL-1207");
  await buyer.getByLabel(en.checkout.address.country).selectOption("GB");
  await buyer.getByRole("button", { name: en.checkout.pay }).click();
  await buyer.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(buyer).toHaveURL(/\/orders\/\d+\?returned$/);
  await expect(buyer.getByText(en.orders.thanks)).toBeVisible();
  const orderId = Number(/\/orders\/(\d+)/.exec(buyer.url())?.[1]);
  const number = `#${String(orderId).padStart(6, "0")}`;

  // A later visit shows the order as it stands, without the thanks.
  await buyer.goto(`/orders/${orderId}`);
  await expect(buyer.getByTestId("order-status")).toContainText(en.orders.statuses.paid);
  await expect(buyer.getByText(en.orders.thanks)).toHaveCount(0);
  await buyer.goto("/account");
  await expect(buyer.getByTestId("order-list")).toContainText("$90");

  // The author refunds one book: $45 of $90.
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto(`/admin/orders/${orderId}`);
  await hydrated(page);
  await page.getByLabel(m.amount.replace("{{currency}}", "USD"), { exact: true }).fill("45.00");
  await page.getByLabel(m.note, { exact: true }).fill("One copy arrived damaged");
  await page.getByLabel(m.confirmRefund).check();
  await page.getByRole("button", { name: m.refund }).click();
  await expect(page.getByText(m.done.refund)).toBeVisible();

  // The order page: still paid, $45 of $90 refunded, what stays paid, no thanks even on the return link.
  await buyer.goto(`/orders/${orderId}?returned`);
  const refunded = "$45 of $90 refunded";
  await expect(buyer.getByTestId("order-status")).toContainText(en.orders.statuses.paid);
  await expect(buyer.getByTestId("order-status")).toContainText(refunded);
  await expect(buyer.getByTestId("order-refunded")).toHaveText("-$45");
  await expect(buyer.getByTestId("order-kept")).toHaveText("$45");
  await expect(buyer.getByText(en.orders.thanks)).toHaveCount(0);
  await expect(buyer.getByText(en.orders.membershipDaysRule)).toBeVisible();
  await buyer.screenshot({ path: testInfo.outputPath("order-partly-refunded.png"), fullPage: true });

  // The account: the orders table and the purchase history say it; one book's 90 days are left.
  await buyer.goto("/account");
  const orders = buyer.getByTestId("order-list");
  await expect(orders.getByRole("link", { name: number })).toBeVisible();
  await expect(orders).toContainText(refunded);
  await expect(buyer.getByTestId("purchase-history")).toContainText(refunded);
  await expect(buyer.getByTestId("membership-days")).toContainText("90 days left");
  await orders.scrollIntoViewIfNeeded();
  await buyer.screenshot({ path: testInfo.outputPath("account-partly-refunded.png") });

  // The e-mail says how much, and that one book's days were taken back.
  const mail = await outboxMessage(reader.email, "We refunded $45.00 of the $90.00");
  expect(mail).toContain("so its 90 membership days were taken back");
  await context.close();
});
