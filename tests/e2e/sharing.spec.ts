import { expect, hydrated, test } from "../support/fixtures";

test("copies a paragraph's link with the keyboard, and the link opens the chapter at that paragraph", async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/chapter/1");
  await hydrated(page);
  // The paragraph at the top of the view is the one whose link is copied, as bookmarks take it.
  await page.locator("#p-12").evaluate((block) => block.scrollIntoView({ block: "start" }));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const copy = page.getByRole("button", { name: "Copy link" });
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator(".toast[role=status]")).toHaveText("Link copied");
  await page.screenshot({ path: testInfo.outputPath("copy-link.png") });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/\/chapter\/1#p-1[12]$/);

  // This browser's saved place is further on: the link must win over it.
  await page.locator("#p-40").evaluate((block) => block.scrollIntoView({ block: "start" }));
  await expect
    .poll(() =>
      page.evaluate(() => JSON.parse(localStorage.getItem("reading") ?? "{}").chapters?.["1"]?.paragraph),
    )
    .toBeGreaterThanOrEqual(39);

  const url = new URL(copied);
  const opened = await context.newPage();
  await opened.goto(url.pathname + url.hash);
  // Hydrated: the effect that restores the saved place has run (it restores none under a link's hash).
  await hydrated(opened);
  const paragraph = opened.locator(url.hash);
  await expect(paragraph).toBeInViewport();
  await expect(opened.locator("#p-40")).not.toBeInViewport();
  await expect(opened.locator(":target")).toHaveAttribute("id", url.hash.slice(1));
});

test("shows the address to copy by hand when the clipboard is refused", async ({ page }) => {
  await page.goto("/chapter/1");
  await hydrated(page);
  await page.evaluate(() =>
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new Error("refused")) },
    }),
  );
  await page.getByRole("button", { name: "Copy link" }).click();
  const field = page.getByRole("textbox", { name: "Copy link" });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(/\/chapter\/1#p-\d+$/);
});
