import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { unique } from "../support/unique";

const a = en.admin.inquiries;
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");

test("a visitor asks about the commission; the author finds it in the admin, reads it as written and marks it answered", async ({
  page,
}, testInfo) => {
  await page.goto("/shop/product/6");
  // The page says what its button does: a message, no order and no reservation.
  await expect(page.getByText(/send an inquiry/)).toBeVisible();
  await expect(page.getByText(/reserves a slot/)).toHaveCount(0);
  await expect(page.getByText(/Nothing is ordered or charged here/)).toBeVisible();

  const name = unique("Ilse");
  // Markup in a message is the sender's text, never the page's.
  const message = `<img src=x onerror="document.title='pwned'"> Could you draw Aurelian?\nOn the archive roof, at night.`;
  await page.getByRole("link", { name: en.shop.inquire }).click();
  await hydrated(page);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Email").fill(`${unique("inquirer")}@example.com`);
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: "Send inquiry" }).click();
  await expect(page).toHaveURL(/\?sent=1$/);

  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: en.admin.sections })
    .getByRole("link", { name: en.admin.nav.inquiries })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: a.title })).toBeVisible();
  await hydrated(page);
  const inquiry = page.getByRole("article", {
    name: fill(a.heading, { name, product: "Custom Commission" }),
  });
  await expect(inquiry).toContainText(a.status.new);
  await expect(inquiry.getByText("<img src=x onerror=")).toBeVisible();
  await expect(inquiry.locator("img")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/pwned/);
  await page.screenshot({ path: testInfo.outputPath("admin-inquiries.png"), fullPage: true });

  await inquiry.getByRole("button", { name: fill(a.markAnsweredOf, { name }) }).click();
  await expect(page.getByText(a.done.answered)).toBeVisible();
  await expect(inquiry).toContainText(a.status.answered);
  await expect(inquiry.getByRole("button", { name: fill(a.markNewOf, { name }) })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-inquiry-answered.png"), fullPage: false });

  await page.goto("/admin/inquiries?view=new");
  await expect(
    page.getByRole("article", { name: fill(a.heading, { name, product: "Custom Commission" }) }),
  ).toHaveCount(0);
  // The change is in the audit log, by this author.
  await page.goto("/admin/audit?action=inquiry.answered");
  await expect(page.getByTestId("audit-entries").getByText(author.username).first()).toBeVisible();
});
