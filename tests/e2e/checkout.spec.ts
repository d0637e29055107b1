import type { Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { newReader, outboxMessage, register, submitRegistration } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const c = en.checkout;
const o = en.orders;

/** As a visitor: Art Print x2 with the first gallery piece, Bookmark Set x1, through the shop's own forms. */
async function fillCart(page: Page, { javaScript = true } = {}): Promise<string> {
  const ready = () => (javaScript ? hydrated(page) : Promise.resolve());
  await page.goto("/shop/product/3");
  await ready();
  const piece = page.getByLabel(en.cart.add.piece);
  const option = piece.locator("option:not([disabled])").first();
  const title = (await option.textContent()) ?? "";
  await piece.selectOption((await option.getAttribute("value")) ?? "");
  await page.getByLabel(en.cart.add.quantity).selectOption("2");
  await page.getByRole("button", { name: en.cart.add.button, exact: true }).click();
  await expect(cartBar(page)).toContainText("2 items · $50.00");
  await page.goto("/shop/product/1");
  await ready();
  await page.getByRole("button", { name: en.cart.add.button, exact: true }).click();
  await expect(cartBar(page)).toContainText("3 items · $65.00");
  return title.trim();
}

const cartBar = (page: Page) => page.getByRole("region", { name: en.cart.bar.label, exact: true }).last();

test("a visitor's $65 cart: sign up from checkout, cart intact, paid on the test provider, tier and membership days on the account", async ({
  page,
}, testInfo) => {
  const piece = await fillCart(page);

  // Checkout sends a visitor to sign in, and on to create an account, coming back to /checkout.
  await cartBar(page).getByRole("link", { name: en.cart.bar.checkout }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout$/);
  await page.getByRole("link", { name: en.auth.login.registerLink }).click();
  await expect(page).toHaveURL(/\/register\?redirectTo=%2Fcheckout$/);
  const reader = newReader();
  // Registration signs the new reader in and goes back to /checkout, where the visitor's cart joins theirs.
  await submitRegistration(page, reader, { onForm: true });
  await expect(page).toHaveURL(/\/checkout$/);
  await hydrated(page);

  // The cart is intact, priced by the server.
  await expect(page.getByText(`Art Print 11x17 — ${piece}`)).toBeVisible();
  await expect(page.getByText("Bookmark Set (5pc)").first()).toBeVisible();
  await expect(page.getByText(`${en.cart.lines.total}: $65.00`)).toBeVisible();
  await expect(cartBar(page)).toContainText("3 items · $65.00");

  // A postal code with symbols is refused beside its field, in the page's language, before anything is sent.
  await page.getByLabel(c.address.name).fill("Ilse Marrow");
  await page.getByLabel(c.address.line1).fill("12 Lantern Row");
  await page.getByLabel(c.address.city).fill("New Lumen");
  await page.getByLabel(c.address.postalCode).fill("<NL>");
  await page.getByLabel(c.address.country).selectOption("GB");
  await page.getByRole("button", { name: c.pay }).click();
  await expect(page.getByLabel(c.address.postalCode)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(c.errors.postalCode)).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.screenshot({ path: testInfo.outputPath("checkout.png"), fullPage: true });

  await page.getByLabel(c.address.postalCode).fill("NL-1207");
  await page.getByRole("button", { name: c.pay }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await expect(page.getByText("$65")).toBeVisible();
  await page.getByRole("button", { name: en.payments.test.approve }).click();

  await expect(page).toHaveURL(/\/orders\/\d+\?returned$/);
  const orderId = Number(/\/orders\/(\d+)\?returned$/.exec(page.url())?.[1]);
  const number = `#${String(orderId).padStart(6, "0")}`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    o.orderTitle.replace("{{number}}", number),
  );
  await expect(page.getByTestId("order-status")).toContainText(o.statuses.paid);
  await expect(page.getByTestId("order-total")).toHaveText("$65");
  await expect(page.getByTestId("order-address")).toContainText("NL-1207 New Lumen");
  await expect(page.getByTestId("order-address")).toContainText("United Kingdom");
  await hydrated(page);
  await page.screenshot({ path: testInfo.outputPath("order.png"), fullPage: true });

  const mail = await outboxMessage(reader.email, number);
  expect(mail).toContain("Total: $65");

  await page.goto("/account");
  const membership = page.getByTestId("membership");
  await expect(membership).toContainText(en.tiers.analyst);
  await expect(membership).toContainText("Total spent: $65");
  await expect(page.getByTestId("membership-days")).toContainText("Observer");
  await expect(page.getByTestId("membership-days")).toContainText("150 days left");
  const list = page.getByTestId("order-list");
  await expect(list.getByRole("link", { name: number })).toBeVisible();
  await expect(list).toContainText(o.statuses.paid);
  await expect(list).toContainText("$65");
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("account-orders.png") });

  // The cart was emptied by the paid order; another reader's order is not found.
  await page.goto("/checkout");
  await expect(page.getByTestId("checkout-empty")).toBeVisible();
  const other = await page.request.get(`/orders/${orderId + 100000}`);
  expect(other.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server refuses a bad address beside its field and keeps what was typed", async ({ page }) => {
    await register(page);
    await fillCart(page, { javaScript: false });
    await page.goto("/checkout");
    await expect(page.getByText(`${en.cart.lines.total}: $65.00`)).toBeVisible();
    await page.getByLabel(c.address.name).fill("Ilse Marrow");
    await page.getByLabel(c.address.line1).fill("12 Lantern Row");
    await page.getByLabel(c.address.city).fill("New Lumen");
    await page.getByLabel(c.address.postalCode).fill("NL-1207");
    await page.getByRole("button", { name: c.pay }).click();
    await expect(page.getByText(c.errors.country)).toBeVisible();
    await expect(page.getByLabel(c.address.country)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel(c.address.city)).toHaveValue("New Lumen");
    await page.getByLabel(c.address.country).selectOption("FR");
    await page.getByRole("button", { name: c.pay }).click();
    await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  });
});
