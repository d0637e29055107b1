import { expect, hydrated, test } from "../support/fixtures";

/** The paragraph at the top of the screen, below the reader's pinned bar, as the picker reads it. */
const paragraphAtTop = () => {
  const top = document.querySelector(".reader-header")?.getBoundingClientRect().bottom ?? 0;
  for (const block of document.querySelectorAll<HTMLElement>("[data-p]"))
    if (block.getBoundingClientRect().bottom > top) return Number(block.dataset.p);
  return -1;
};

test("the picker keeps the reader's paragraph in the other language, and links stay under /es/", async ({
  page,
}) => {
  await page.goto("/chapter/2");
  await hydrated(page);
  const count = await page.locator("[data-p]").count();
  const middle = Math.floor(count / 2);
  await page.locator(`[data-p="${middle}"]`).evaluate((block) => block.scrollIntoView({ block: "start" }));
  const before = await page.evaluate(paragraphAtTop);
  expect(before).toBeGreaterThan(0);

  await page.getByRole("combobox", { name: "Language" }).selectOption("es");
  await expect(page).toHaveURL(new RegExp(`/es/chapter/2#p-${before}$`));
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  // The paragraph is at the top of the screen again, below the pinned bars.
  const top = await page.locator(`#p-${before}`).evaluate((block) => block.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan((page.viewportSize()?.height ?? 0) / 3);

  // A client navigation stays in Spanish.
  await hydrated(page);
  await page.locator('a[href="/es/chapter/3"]').first().click();
  await expect(page).toHaveURL(/\/es\/chapter\/3$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
});
