import { expect, hydrated, test } from "../support/fixtures";

/** The paragraph at the top of the screen, below the reader's pinned bar, as the reading progress takes it. */
const paragraphAtTop = () => {
  const top = document.querySelector(".reader-header")?.getBoundingClientRect().bottom ?? 0;
  const blocks = [...(document.querySelector("[data-chapter-body]")?.children ?? [])];
  return blocks.findIndex((block) => block.getBoundingClientRect().bottom > top);
};

test("the picker keeps the reader's paragraph in the other language, and links stay under /es/", async ({
  page,
}) => {
  await page.goto("/chapter/2");
  await hydrated(page);
  const count = await page.locator("[data-chapter-body] > *").count();
  const middle = Math.floor(count / 2);
  await page.locator(`#p-${middle}`).evaluate((block) => block.scrollIntoView({ block: "start" }));
  const before = await page.evaluate(paragraphAtTop);
  expect(before).toBeGreaterThan(0);

  await page.getByRole("combobox", { name: "Language" }).selectOption("es");
  await expect(page).toHaveURL(/\/es\/chapter\/2$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  // The reader's place is the chapter's, whatever the language: the same paragraph is at the top again.
  await expect.poll(() => page.evaluate(paragraphAtTop)).toBe(before);

  // A client navigation stays in Spanish.
  await hydrated(page);
  await page.locator('a[href="/es/chapter/3"]').first().click();
  await expect(page).toHaveURL(/\/es\/chapter\/3$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
});
