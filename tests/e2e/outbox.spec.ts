import { newReader, submitRegistration } from "../support/browser";
import { expect, test } from "../support/fixtures";

/**
 * Someone trying the site on their own machine with no mail server (the default): the "check your e-mail"
 * page points to the local outbox, whose welcome e-mail's link leads to signing in (ADR 20).
 */
test("register, open the welcome e-mail in the local outbox, sign in, collect the coins", async ({
  page,
}, testInfo) => {
  const reader = newReader("outbox");
  await submitRegistration(page, reader);
  await expect(page.getByRole("note")).toContainText("No mail server is set up");

  await page.getByRole("link", { name: "local outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  // The account is made after the answer (ADR 16): its e-mail can arrive a moment after the page.
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

  await page.getByRole("link", { name: /\/login\?redirectTo=%2Fwelcome$/ }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fwelcome$/);
  await page.getByLabel("Email").fill(reader.email);
  await page.getByLabel("Password").fill(reader.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByText("+3 Coins")).toBeVisible();
});
