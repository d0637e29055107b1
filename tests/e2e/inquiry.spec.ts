import type { Page } from "@playwright/test";
import { outboxMessage } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { unique } from "../support/unique";

/**
 * The Inquire form of a product priced 0 (Custom Commission, ADR 26): sent with a mouse, with the keyboard
 * alone and with no JavaScript; a refusal is translated, beside its field, with the text kept.
 */
const PAGE = "/shop/product/6/inquire";
const MESSAGE = "Could you draw Aurelian on the archive roof, at night, for my wall?";
const sender = () => `${unique("inquirer")}@example.com`;

async function fill(page: Page, { name, email, message }: { name: string; email: string; message: string }) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Message").fill(message);
}

async function expectSent(page: Page, email: string) {
  await expect(page).toHaveURL(/\/shop\/product\/6\/inquire\?sent=1$/);
  await expect(page.getByRole("status")).toContainText("Thank you! Your message is on its way");
  // The sender's copy is sent after the answer.
  expect(await outboxMessage(email, "Thank you for writing about Custom Commission")).toContain(MESSAGE);
}

test("fill in the form and send it: the page confirms and the copy arrives", async ({ page }, testInfo) => {
  await page.goto(PAGE);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inquire about Custom Commission");
  await expect(page).toHaveTitle(/^Inquire about Custom Commission · /);
  const email = sender();
  await fill(page, { name: "Ilse Marrow", email, message: MESSAGE });
  await page.screenshot({ path: testInfo.outputPath("inquiry-form.png"), fullPage: true });
  await page.getByRole("button", { name: "Send inquiry" }).click();
  await expectSent(page, email);
  await page.screenshot({ path: testInfo.outputPath("inquiry-sent.png"), fullPage: true });
});

test("a refusal is shown in the reader's language, beside its field, with the text kept", async ({
  page,
  prefer,
}, testInfo) => {
  await prefer({ lang: "fr" });
  await page.goto(PAGE);
  await hydrated(page);
  await page.getByLabel("Votre nom").fill("Ilse");
  await page.getByLabel("E-mail").fill("pas une adresse");
  await page.getByLabel("Message").fill("Trop court.");
  await page.getByRole("button", { name: "Envoyer la demande" }).click();
  await expect(page.getByText("Votre message doit compter au moins 20 caractères")).toBeVisible();
  await expect(page.getByText("Adresse e-mail invalide")).toBeVisible();
  // The first field refused takes the focus.
  await expect(page.getByLabel("E-mail")).toBeFocused();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Votre nom")).toHaveValue("Ilse");
  await expect(page.getByLabel("Message")).toHaveValue("Trop court.");
  await page.screenshot({ path: testInfo.outputPath("inquiry-errors-fr.png"), fullPage: true });
});

test("sent with the keyboard alone", async ({ page }) => {
  await page.goto(PAGE);
  await hydrated(page);
  const name = page.getByLabel("Your name");
  // Tab from the top of the page until the form's first field has the focus.
  const focused = () => name.evaluate((field) => field === document.activeElement);
  for (let presses = 0; presses < 60 && !(await focused()); presses++) await page.keyboard.press("Tab");
  await expect(name).toBeFocused();
  const email = sender();
  await page.keyboard.type("Ilse Marrow");
  await page.keyboard.press("Tab");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(MESSAGE);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Send inquiry" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expectSent(page, email);
});

test("a product with a price has no Inquire form", async ({ page }) => {
  const response = await page.goto("/shop/product/1/inquire");
  expect(response?.status()).toBe(404);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the server refuses a bad form with its messages and the text kept, then sends the corrected one", async ({
    page,
  }, testInfo) => {
    await page.goto(PAGE);
    const email = sender();
    await fill(page, { name: "Ilse Marrow", email, message: "Too short." });
    await page.getByRole("button", { name: "Send inquiry" }).click();
    await expect(page.getByText("Your message must be at least 20 characters")).toBeVisible();
    await expect(page.getByLabel("Your name")).toHaveValue("Ilse Marrow");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Message")).toHaveValue("Too short.");
    await page.screenshot({ path: testInfo.outputPath("inquiry-no-js-error.png"), fullPage: true });

    await page.getByLabel("Message").fill(MESSAGE);
    await page.getByRole("button", { name: "Send inquiry" }).click();
    await expectSent(page, email);
  });
});
