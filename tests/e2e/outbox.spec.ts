import { newReader, submitRegistration } from "../support/browser";
import { expect, test } from "../support/fixtures";

/**
 * Someone trying the site on their own machine with no mail server (the default): registration signs them
 * in, the banner's page points to the local outbox, and the welcome e-mail's link confirms the address
 * (ADR 20, ADR 56).
 */
test("register, open the welcome e-mail in the local outbox, confirm the address", async ({
  page,
}, testInfo) => {
  const reader = newReader("outbox");
  await submitRegistration(page, reader);
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByText("+3 Coins")).toBeVisible();
  await page
    .getByRole("note")
    .getByRole("link", { name: /confirm your e-mail address/ })
    .click();
  await expect(page).toHaveURL(/\/confirm-email$/);
  await expect(page.getByRole("note").filter({ hasText: "No mail server is set up" })).toBeVisible();

  await page.getByRole("link", { name: "local outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  // The e-mail is sent after the answer: it can arrive a moment after the page.
  const entry = page.getByRole("listitem").filter({ hasText: reader.email });
  await expect(async () => {
    await page.reload();
    await expect(entry).toHaveCount(1, { timeout: 500 });
  }).toPass();
  await page.screenshot({ path: testInfo.outputPath("outbox.png"), fullPage: true });

  await entry.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Welcome to");
  await expect(page.getByText(reader.email)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("outbox-message.png"), fullPage: true });

  await page.getByRole("link", { name: /\/confirm-email\?token=/ }).click();
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByText("Your e-mail address is confirmed.")).toBeVisible();
  await expect(page.getByRole("note").filter({ hasText: "confirm your e-mail address" })).toHaveCount(0);
});
