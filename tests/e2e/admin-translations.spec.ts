import type { Page } from "@playwright/test";
import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/** What the form will post: the text area the editor keeps in step. */
const posted = (page: Page) => page.locator('textarea[name="bodyMd"]');

/** Adds a line at the end of the text, as an author does: in the loaded editor, after its last character. */
async function append(page: Page, line: string) {
  await expect(page.locator(".cm-editor")).toBeVisible();
  const before = await posted(page).inputValue();
  await page.getByRole("textbox", { name: "Text (Markdown)" }).click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText(`\n\n${line}`);
  await expect(posted(page)).toHaveValue(`${before}\n\n${line}`);
}

const frenchMark = (page: Page) => page.getByTestId("translation-fr");

/**
 * The author edits chapter 2's French beside its original and sees it current; an edit of the original marks
 * it stale; the original restored, it is current again (so the demo's chapter 2 reads as it did).
 */
test("a translation is current once saved and stale after the original's edit", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "edits the demo's chapter 2: walked once");
  test.slow();
  const author = await register(page);
  await grantAuthor(author.email);
  await page.goto("/admin/chapters");
  await page
    .getByTestId("admin-chapter")
    .filter({ has: page.getByRole("cell", { name: "2", exact: true }) })
    .getByRole("link")
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit chapter 2" })).toBeVisible();
  const editor = new URL(page.url()).pathname;
  const panel = page.getByRole("region", { name: "Translations" });
  // The demo has chapter 2 in every language (chapter 4 in none: the integration test shows it missing).
  await expect(panel.getByTestId("translation-es")).toHaveText("Up to date");

  // The French, beside the original.
  await panel.getByRole("link", { name: "Edit the Français translation" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Chapter 2 in Français" })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Title").fill("Le Gardien de la Porte de l’Est, revu");
  await append(page, "Une phrase ajoutée par l’autrice.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/^Saved as version \d+\.$/)).toBeVisible();
  await expect(page.getByTestId("translation-mark")).toHaveText("Up to date");
  await page.screenshot({ path: testInfo.outputPath("translation-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath("translation-360.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  // What the save changed, against the version before it.
  await page.getByTestId("revisions").getByRole("link", { name: "Compare" }).first().click();
  await expect(page.getByTestId("diff").locator("ins")).toContainText("Une phrase ajoutée par l’autrice.");
  await page.getByRole("link", { name: "Back to the chapter" }).click();
  await expect(frenchMark(page)).toHaveText("Up to date");

  // The original changes: the French is older than it now.
  await hydrated(page);
  await append(page, "A line the translation does not have.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/^Saved as version \d+\.$/)).toBeVisible();
  await expect(frenchMark(page)).toHaveText("Stale: older than the original's last change");
  await page
    .getByRole("region", { name: "Translations" })
    .screenshot({ path: testInfo.outputPath("stale.png") });

  // The original as it was: the French is current again.
  await page.goto(`${editor}/revisions`);
  await page
    .getByRole("button", { name: /^Restore version/ })
    .first()
    .click();
  await expect(page.getByText(/^Saved as version \d+\.$/)).toBeVisible();
  await expect(frenchMark(page)).toHaveText("Up to date");
});
