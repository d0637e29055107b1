import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const r = en.admin.reader;

/**
 * Issue 20's acceptance in the browser: a reader holding their 3 welcome coins loses nothing to a -5
 * adjustment (refused, saying why); +5 is a ledger entry naming the author and the reason, the audit log
 * keeps the balance before and after, and the reader's page shows the new balance.
 */
test("an author adjusts a reader's coins: -5 of 3 is refused, +5 is booked with the author and reason", async ({
  page,
  browser,
}, testInfo) => {
  const context = await browser.newContext();
  const reader = await register(await context.newPage());
  await context.close();
  const author = await register(page);
  await grantAuthor(author.email);

  await page.goto("/admin/readers");
  await hydrated(page);
  await page.getByLabel(en.admin.readers.query).fill(reader.email);
  await page.getByRole("button", { name: en.admin.readers.search }).click();
  await page.getByTestId("admin-readers").getByRole("link", { name: reader.username }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(reader.username);
  await hydrated(page);
  await expect(page.getByTestId("reader-balance")).toHaveText("3");

  const adjust = async (delta: string, reason: string) => {
    await page.getByLabel(r.delta).fill(delta);
    const form = page.locator("form").filter({ has: page.getByLabel(r.delta) });
    await form.getByLabel(r.note, { exact: true }).fill(reason);
    await form.getByLabel(r.confirmCoins).check();
    await form.getByRole("button", { name: r.adjust }).click();
  };
  await adjust("-5", "Chargeback at the bank");
  await expect(
    page.getByText("The reader holds 3 coins: the balance cannot go below zero. Nothing changed."),
  ).toBeVisible();
  await expect(page.getByTestId("reader-balance")).toHaveText("3");

  await adjust("5", "Apology for the outage");
  await expect(page.getByText(r.done.coins)).toBeVisible();
  await expect(page.getByTestId("reader-balance")).toHaveText("8");
  // The form is empty again: a second click adjusts nothing.
  await expect(page.getByLabel(r.delta)).toHaveValue("");
  await expect(page.getByTestId("reader-ledger").getByRole("listitem").first()).toContainText(
    `+5 · ${r.reasons.admin} · ${author.username} · “Apology for the outage”`,
  );
  await page.screenshot({ path: testInfo.outputPath("admin-reader-coins.png"), fullPage: true });

  await page.goto("/admin/audit?action=reader.coins");
  const entry = page
    .getByRole("listitem")
    .filter({ hasText: "Apology for the outage" })
    .filter({ hasText: author.username });
  await expect(entry).toContainText('{"balance":3}');
  await expect(entry).toContainText('"balance":8');
  await expect(entry).toContainText(author.username);
});
