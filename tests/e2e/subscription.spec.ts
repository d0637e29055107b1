import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";

// Several pages and two payment steps on a machine that may be busy: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const s = en.subscriptions;
const p = en.payments;

/** The date a month from now, as the account writes it (English, long, UTC). */
function nextMonth(): string {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(now.getUTCDate(), last));
  return new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(next);
}

test("a new reader subscribes to Analyst on the test provider, sees the tier and renewal date, then cancels", async ({
  page,
}, testInfo) => {
  await register(page);
  await page.goto("/account");
  const panel = page.getByRole("region", { name: s.panelTitle });
  await expect(panel.getByText(s.none)).toBeVisible();
  await hydrated(page);

  // Join from the account: choose Analyst with the keyboard and subscribe.
  await panel.getByRole("radio", { name: /^Analyst/ }).check();
  await panel.getByRole("button", { name: s.joinForm.submit }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await expect(page.getByText(p.test.banner)).toBeVisible();
  await expect(page.getByText("$7")).toBeVisible();
  await page.getByRole("button", { name: p.test.approve }).click();
  await expect(page).toHaveURL(/\/fundraiser\/thanks\?payment=\d+$/);

  await page.goto("/account");
  await expect(page.getByTestId("membership")).toContainText("Analyst");
  // The dashboard lists the tier's perks, each linked to where it lives.
  const perks = page.getByTestId("perk-links");
  await expect(perks.getByRole("link", { name: en.perks.items.monthly_qa.name })).toHaveAttribute(
    "href",
    "/qa",
  );
  await expect(perks.getByRole("link", { name: en.perks.items.beta_reading.name })).toHaveCount(0);
  await expect(panel.getByTestId("subscription-tier")).toHaveText("Analyst");
  await expect(panel.getByTestId("subscription-status")).toHaveText(s.phase.active);
  await expect(panel.getByTestId("subscription-when")).toHaveText(s.renews.replace("{{date}}", nextMonth()));
  await expect(panel).toContainText("$7 a month");
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("account-subscription.png"), fullPage: true });

  // The test provider's own page for the subscription.
  await panel.getByRole("link", { name: s.testPage }).click();
  await expect(page.getByRole("heading", { level: 1, name: s.test.title })).toBeVisible();
  await expect(page.getByText(p.test.banner)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("test-subscription.png"), fullPage: true });
  await page.getByRole("link", { name: s.test.back }).click();

  // Cancel, through its confirmation step, by keyboard.
  await expect(page).toHaveURL(/\/account\/subscription$/);
  await hydrated(page);
  await page.getByRole("link", { name: s.cancel.open }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: s.cancel.title })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("cancel-confirm.png"), fullPage: true });
  await page.getByRole("button", { name: s.cancel.confirm }).click();
  await expect(page).toHaveURL(/\/account\/subscription\?done=cancel$/);
  await expect(page.getByRole("status")).toHaveText(s.done.cancel);
  await expect(page.getByTestId("subscription-status")).toHaveText(s.phase.ending);
  await expect(page.getByTestId("subscription-when")).toHaveText(s.ends.replace("{{date}}", nextMonth()));
  await expect(page.getByRole("button", { name: s.resume })).toBeVisible();

  // The tier lasts to the period end.
  await page.goto("/account");
  await expect(page.getByTestId("membership")).toContainText("Analyst");
});
