import type { Page } from "@playwright/test";
import { deleteChapter, grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/** Replaces the chapter text as an author does: in the loaded editor, all selected, then typed over. */
async function write(page: Page, text: string) {
  const body = page.getByRole("textbox", { name: "Text (Markdown)" });
  await expect(page.locator(".cm-editor")).toBeVisible();
  await body.click();
  await body.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
  await expect(page.locator('textarea[name="bodyMd"]')).toHaveValue(text);
}

/**
 * The author looks at a paid chapter as its readers will: each preview says whom it shows the chapter to,
 * a reader who paid reads the text, and the banner leads back to the editor. The chapter stays a draft, so
 * no other test's pages change.
 */
test("an author previews a paid chapter as a reader who has not unlocked it and as one who has, then goes back to the editor", async ({
  page,
  prefer,
}, testInfo) => {
  const author = await register(page);
  await grantAuthor(author.email);
  const line = `Only readers who paid read this line (${testInfo.project.name} ${Date.now()}).`;

  await page.goto("/admin/chapters/new");
  await hydrated(page);
  await page.getByLabel("Title").fill(`Paid preview ${testInfo.project.name} ${Date.now()}`);
  await write(page, line);
  const hourAgo = new Date(Date.now() - 3_600_000);
  const local = new Date(hourAgo.getTime() - hourAgo.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByLabel("Release", { exact: true }).fill(local);
  await page.getByLabel("Price in coins (0: free)", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Create chapter" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  const editor = new URL(page.url()).pathname;

  // A reader who has not unlocked it meets the price, and the banner says that this is what the page shows.
  await page
    .getByTestId("preview-as")
    .getByRole("link", { name: "a reader who has not unlocked it" })
    .click();
  const asReader = page.getByRole("complementary", {
    name: "Preview: this chapter as a signed-in reader sees it before unlocking it (no coins).",
  });
  await expect(asReader).toBeVisible();
  await expect(page.getByRole("region", { name: "Chapter Locked" })).toBeVisible();
  await expect(page.getByText(line)).toHaveCount(0);

  // The banner offers the reader who unlocked it: the text, as a paying reader reads it.
  await asReader.getByRole("link", { name: "a reader who unlocked it" }).click();
  const asPayer = page.getByRole("complementary", {
    name: "Preview: this chapter as a reader who unlocked it sees it.",
  });
  await expect(asPayer).toBeVisible();
  await expect(page.getByText(line)).toBeVisible();
  await expect(page.getByRole("region", { name: "Chapter Locked" })).toHaveCount(0);
  // Nothing wider than the screen, on a phone too.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
  await page.screenshot({ path: testInfo.outputPath("preview-unlocked.png") });
  await prefer({ theme: "dark" });
  await page.reload();
  await expect(asPayer).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("preview-unlocked-dark.png") });

  // Back to the editor, where the author left the chapter.
  await asPayer.getByRole("link", { name: "Back to the editor" }).click();
  await expect(page).toHaveURL(editor);
  await expect(page.getByRole("heading", { name: /^Edit chapter \d+$/ })).toBeVisible();

  // The author's own view of the chapter, without `?as=`, is no preview: no banner.
  const number = /Edit chapter (\d+)/.exec(
    (await page.getByRole("heading", { level: 1 }).textContent()) ?? "",
  )?.[1];
  await page.goto(`/chapter/${number}`);
  await expect(page.getByText(line)).toBeVisible();
  await expect(page.getByTestId("preview-banner")).toHaveCount(0);

  // Deleted (a preview unlocks nothing), so the next chapter number is the demo's again.
  expect(await deleteChapter(page, editor)).toBe(number);
});
