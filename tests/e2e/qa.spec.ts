import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";
import { unique } from "../support/unique";

// Registration, two payment steps and the Q&A pages on a shared machine: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const q = en.qa;
const s = en.subscriptions;
const p = en.payments;

test("an Analyst asks this month's question, and the author sees it in the admin", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const reader = await register(page);

  // Analyst through the test provider, as a reader joins from the account.
  await page.goto("/account");
  await hydrated(page);
  const panel = page.getByRole("region", { name: s.panelTitle });
  await panel.getByRole("radio", { name: /^Analyst/ }).check();
  await panel.getByRole("button", { name: s.joinForm.submit }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await page.getByRole("button", { name: p.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  await page.goto("/qa");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: q.title })).toBeVisible();
  await expect(page.getByTestId("qa-left")).toHaveText(q.ask.left_other.replace("{{count}}", "3"));
  // The browser's check names a question too short before anything is sent.
  await page.getByLabel(q.ask.question).fill("Why?");
  await page.getByRole("button", { name: q.ask.submit }).click();
  await expect(page.getByText(q.errors.tooShort)).toBeVisible();

  const question = `Does the archive keep a record of every covenant? ${unique("qa")}`;
  await page.getByLabel(q.ask.question).fill(question);
  await page.getByLabel(q.ask.anonymous).check();
  await page.screenshot({ path: testInfo.outputPath("qa-form.png"), fullPage: true });
  await page.getByRole("button", { name: q.ask.submit }).click();
  await expect(page).toHaveURL(/\/qa\?asked=1$/);
  await expect(page.getByRole("status")).toHaveText(q.ask.sent);
  await expect(page.getByTestId("qa-my-questions")).toContainText(question);
  await expect(page.getByTestId("qa-my-questions")).toContainText(q.ask.askedAnonymously);
  await expect(page.getByTestId("qa-left")).toHaveText(q.ask.left_other.replace("{{count}}", "2"));
  await page.screenshot({ path: testInfo.outputPath("qa-asked.png"), fullPage: true });

  // The author sees it, with the asker's name and their choice to be shown anonymously.
  await grantAuthor(reader.email);
  await page.goto("/admin/qa");
  await expect(page.getByRole("heading", { level: 1, name: en.admin.qa.title })).toBeVisible();
  const item = page.getByTestId("qa-admin-questions").getByRole("listitem").filter({ hasText: question });
  await expect(item).toContainText(en.admin.qa.askerAnonymous.replace("{{name}}", reader.username));
  await page.screenshot({ path: testInfo.outputPath("admin-qa.png"), fullPage: true });
});

test("a free reader is refused with the reason and the way to join; a visitor is asked to sign in", async ({
  page,
}, testInfo) => {
  await page.goto("/qa");
  await expect(page.getByRole("link", { name: q.ask.signIn })).toHaveAttribute(
    "href",
    "/login?redirectTo=%2Fqa",
  );

  await register(page);
  await page.goto("/qa");
  const refused = page.getByTestId("qa-refused");
  await expect(refused.getByRole("alert")).toHaveText(q.errors.tier);
  await expect(refused.getByRole("link", { name: q.join })).toHaveAttribute("href", "/fundraiser");
  await expect(page.getByLabel(q.ask.question)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("qa-refused.png"), fullPage: true });
  await refused.getByRole("link", { name: q.join }).click();
  await expect(page).toHaveURL(/\/fundraiser$/);
});
