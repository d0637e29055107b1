import type { Page } from "@playwright/test";
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

// ADR 88: the reading theme and layout are on <html> before the first paint: rendered by the server for a
// signed-in reader, set by the head script from storage for a visitor. With every script file answered empty,
// what the page shows comes from the HTML, the head script and the stylesheet alone: the first paint.
const noAppScripts = (page: Page) =>
  page.route("**/assets/*.js", (route) => route.fulfill({ contentType: "text/javascript", body: "" }));

/** What a sepia, wide, justified page looks like to the browser. */
async function expectSepiaWideJustified(page: Page) {
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(244, 236, 216)");
  const article = page.locator("article");
  await expect(article).toHaveCSS("color", "rgb(46, 36, 24)");
  // 48em of the 16 px text.
  await expect(article).toHaveCSS("max-width", "768px");
  await expect(article.locator("p").first()).toHaveCSS("text-align", "justify");
}

test("a visitor's sepia, wide and justified text is on the first paint after a reload", async ({
  page,
}, testInfo) => {
  await page.goto("/chapter/1");
  await hydrated(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const sheet = page.getByRole("dialog");
  await sheet.getByText("Sepia", { exact: true }).click();
  await sheet.getByText("Wide", { exact: true }).click();
  await sheet.getByText("Justified", { exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "sepia");
  await page.screenshot({ path: testInfo.outputPath("sheet-sepia.png") });
  await sheet.getByText("High contrast", { exact: true }).click();
  await expect(page.locator("body")).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await page.screenshot({ path: testInfo.outputPath("sheet-contrast.png") });
  await page.keyboard.press("Escape");
  await page.screenshot({ path: testInfo.outputPath("chapter-contrast.png") });
  await page.getByRole("button", { name: "Settings" }).click();
  await sheet.getByText("Sepia", { exact: true }).click();
  await page.keyboard.press("Escape");

  await noAppScripts(page);
  await page.reload();
  await expectSepiaWideJustified(page);
  await page.screenshot({ path: testInfo.outputPath("chapter-sepia.png") });
});

test("a signed-in reader's choice from /settings is rendered by the server on every page", async ({
  page,
  request,
}) => {
  await register(page);
  await page.goto("/settings");
  await hydrated(page);
  await page.getByText("Sepia", { exact: true }).click();
  await page.getByText("Wide", { exact: true }).click();
  await page.getByText("Justified", { exact: true }).click();
  await expect(page.getByTestId("reading-preview")).toHaveCSS("text-align", "justify");
  await page.getByRole("button", { name: "Save reading preferences" }).click();
  await expect(page.getByText("Your reading preferences are saved.")).toBeVisible();

  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const html = await (await request.get("/chapter/1", { headers: { cookie } })).text();
  expect(html).toMatch(/<html[^>]* data-theme="sepia" data-text-width="wide"[^>]* data-text-align="justify"/);
  await noAppScripts(page);
  await page.goto("/chapter/1");
  await expectSepiaWideJustified(page);
});
