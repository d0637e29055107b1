import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const r = en.admin.reader;

/**
 * The admin's readers in the browser (ADR 40): a reader holding their 3 welcome coins loses nothing to a -5
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

test("an author cancels a supporter's subscription at its period end; the supporter's account says it ends", async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the same forms as on a phone, walked once");
  const context = await browser.newContext();
  const supporter = await context.newPage();
  const reader = await register(supporter);
  await supporter.goto("/account");
  await hydrated(supporter);
  const panel = supporter.getByRole("region", { name: en.subscriptions.panelTitle });
  await panel.getByRole("radio", { name: /^Observer/ }).check();
  await panel.getByRole("button", { name: en.subscriptions.joinForm.submit }).click();
  await supporter.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(supporter).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/subscriptions?tier=observer&current=1");
  await hydrated(page);
  const row = page
    .getByTestId("admin-subscriptions")
    .getByRole("listitem")
    .filter({ hasText: reader.username });
  await expect(row).toContainText(en.subscriptions.phase.active);
  await expect(row).toContainText("$3 a month");
  await row.getByText(en.admin.subscriptions.cancel).first().click();
  await row.getByLabel(en.admin.money.note, { exact: true }).fill("Asked by e-mail");
  await row.getByLabel(en.admin.subscriptions.confirmCancel).check();
  await row.getByRole("button", { name: en.admin.subscriptions.cancel }).click();
  await expect(page.getByText(en.admin.subscriptions.done)).toBeVisible();
  await expect(row).toContainText(en.subscriptions.phase.ending);
  await page.screenshot({ path: testInfo.outputPath("admin-subscriptions.png"), fullPage: true });

  await supporter.goto("/account");
  await expect(panel.getByTestId("subscription-status")).toHaveText(en.subscriptions.phase.ending);
  await context.close();
});
