import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The author's admin in the browser. The chapters written here are drafts (hidden from readers), so the
 * other tests' pages do not change under them.
 */
test("two authors edit one chapter: the second save is a conflict that loses nothing; a revision restores", async ({
  page,
  browser,
}, testInfo) => {
  const first = await register(page);
  await grantAuthor(first.email);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Chapters" })
    .click();
  await page.getByRole("link", { name: "New chapter" }).click();
  await hydrated(page);
  await page.getByLabel("Title").fill(`Draft ${testInfo.project.name} ${Date.now()}`);
  await page.getByLabel("Text (Markdown)").fill("The first version of the night.");
  await page.getByRole("button", { name: "Create chapter" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  const editor = new URL(page.url()).pathname;

  // A second author opens the same chapter, then the first saves a change.
  const context = await browser.newContext();
  const second = await context.newPage();
  const secondReader = await register(second);
  await grantAuthor(secondReader.email);
  await second.goto(editor);
  await hydrated(second);
  await page.getByLabel("Text (Markdown)").fill("The second version of the night.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();

  // The second author's save is refused as a conflict: their text stays, the first author's is shown.
  await second.getByLabel("Text (Markdown)").fill("The second author's night.");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByRole("alert")).toContainText("since you opened it (version 2");
  await expect(second.getByLabel("Text (Markdown)")).toHaveValue("The second author's night.");
  await expect(second.getByLabel("Their text (version 2)")).toHaveValue("The second version of the night.");
  await second.screenshot({ path: testInfo.outputPath("conflict.png"), fullPage: true });
  // Saved again, knowingly.
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("Saved as version 3.")).toBeVisible();
  await context.close();

  // The history has every version; version 1 comes back as a new one.
  await page.goto(`${editor}/revisions`);
  await expect(page.getByTestId("revisions").locator("li")).toHaveCount(3);
  await page.goto(`${editor}/revisions?compare=2`);
  await expect(page.getByTestId("diff").locator("del")).toHaveText("The second version of the night.");
  await expect(page.getByTestId("diff").locator("ins")).toHaveText("The second author's night.");
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await expect(page.getByText("Saved as version 4.")).toBeVisible();
  await expect(page.getByLabel("Text (Markdown)")).toHaveValue("The first version of the night.");
});

test("the editor keeps unsaved text as a draft and offers it back", async ({ page }) => {
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/chapters/new");
  await hydrated(page);
  await page.getByLabel("Title").fill("Kept while writing");
  await page.getByLabel("Text (Markdown)").fill("Words nobody saved yet.");
  await expect(page.getByTestId("autosave-status")).toContainText("Draft kept at", { timeout: 15_000 });
  await page.goto("/admin");
  await page.goto("/admin/chapters/new");
  await hydrated(page);
  await page.getByRole("button", { name: "Restore it" }).click();
  await expect(page.getByLabel("Text (Markdown)")).toHaveValue("Words nobody saved yet.");
  await expect(page.getByLabel("Title")).toHaveValue("Kept while writing");
});
