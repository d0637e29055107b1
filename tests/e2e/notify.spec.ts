import type { Page } from "@playwright/test";
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * "Notify me" (ADR 45) in the browser: a visitor is led to sign in; a reader turns the release
 * e-mails on from the table of contents with the keyboard, /settings shows the same choice, and the button
 * turns them off again.
 */
test("Notify me on the table of contents turns the release e-mails on; /settings shows it", async ({
  page,
  browser,
}) => {
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto("/toc");
  await expect(visitor.getByRole("link", { name: "Sign in to be notified of new chapters" })).toHaveAttribute(
    "href",
    "/login?redirectTo=%2Ftoc",
  );
  await visitorContext.close();

  await register(page);
  await page.goto("/toc");
  await hydrated(page);
  const notify = page.getByRole("button", { name: "Notify me of new chapters" });
  await notify.focus();
  // The button shows the new choice at once; the next page is opened once the server has kept it.
  let saved = choiceSaved(page);
  await page.keyboard.press("Enter");
  await saved;
  await expect(page.getByText("You will get an e-mail when a new chapter is released.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop the e-mails" })).toBeVisible();

  await page.goto("/settings");
  await expect(page.getByLabel("E-mail me when a new chapter is released")).toBeChecked();

  // Chapter 10 waits for its release: its page is shared by the readers waiting (ADR 50), so the button asks
  // for the reader's choice once the page runs, and shows it.
  await page.goto("/chapter/10");
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Stop the e-mails" })).toBeVisible();

  await page.goto("/toc");
  await hydrated(page);
  saved = choiceSaved(page);
  await page.getByRole("button", { name: "Stop the e-mails" }).click();
  await saved;
  await expect(page.getByRole("button", { name: "Notify me of new chapters" })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByLabel("E-mail me when a new chapter is released")).not.toBeChecked();
});

function choiceSaved(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/notify"),
  );
}
