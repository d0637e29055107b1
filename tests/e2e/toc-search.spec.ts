import { expect, hydrated, test } from "../support/fixtures";

/**
 * The table of contents' search by title and jump to a chapter (ADR 92), as a reader uses them: the rows
 * filter as they type, the count is said, a number leads to its row or to the reason there is none.
 */
test("the search filters the chapters by title and the jump goes to a chapter", async ({
  page,
  prefer,
}, testInfo) => {
  await page.goto("/toc");
  await hydrated(page);
  const rows = page.locator('li[id^="chapter-"]');
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();
  const status = page.getByTestId("toc-search-status");

  // Accents and case aside: "The Tithe Ledger" (volume 1) to "What the Bond Remembers" (volume 2).
  await page.getByLabel("Search chapter titles").pressSequentially("THÉ");
  await expect(status).toHaveText("5 chapters match");
  await expect(rows).toHaveCount(5);
  await expect(page.locator("#chapter-2")).toContainText("The Warden of the Eastern Gate");
  await expect(page.locator("#chapter-9")).toContainText("What the Bond Remembers");
  await expect(page.locator("#chapter-3")).toHaveCount(0);
  await page.getByLabel("Search chapter titles").fill("moon");
  await expect(rows).toHaveCount(2);
  await expect(page.locator("#volume-2")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("toc-search.png") });
  await page.getByLabel("Search chapter titles").fill("seance");
  await expect(rows).toHaveCount(0);
  await expect(status).toHaveText("No chapter matches “seance”");
  await page.screenshot({ path: testInfo.outputPath("toc-search-none.png") });

  // The jump shows its row even when the search hid it, and takes the keyboard there.
  const jump = page.getByLabel("Go to chapter");
  await jump.fill("9");
  await jump.press("Enter");
  await expect(page.locator("#chapter-9")).toBeFocused();
  await expect(page.locator("#chapter-9")).toBeInViewport();
  await expect(rows).toHaveCount(all);
  await jump.fill("40");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await expect(page.locator("#toc-jump-message")).toHaveText("There is no chapter 40.");
  await jump.fill("-2");
  await jump.press("Enter");
  await expect(page.locator("#toc-jump-message")).toHaveText(/^Enter a chapter number from 1 to \d+\.$/);
  await jump.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("toc-jump-error.png") });

  // The same answers from the server, in the dark theme.
  await prefer({ theme: "dark" });
  await page.goto("/toc?q=moon");
  await expect(status).toHaveText("2 chapters match");
  await page.getByLabel("Search chapter titles").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("toc-search-dark.png") });
  await page.goto("/toc?chapter=40");
  await expect(page.locator("#toc-jump-message")).toHaveText("There is no chapter 40.");
  await expect(jump).toHaveValue("40");
  await jump.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("toc-jump-error-dark.png") });
});
