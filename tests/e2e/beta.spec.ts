import type { Browser, Page } from "@playwright/test";
import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { grantAuthor, joinFirstHuman, register } from "../support/browser";
import { expect as baseExpect, hydrated, test } from "../support/fixtures";
import { unique } from "../support/unique";

// A payment page, two readers and the admin on a machine that may be busy: a ceiling for each wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const b = en.beta;
/** The demo's draft for beta readers (content/chapters/11.md). */
const BETA = 11;
const TITLE = "What the Bells Keep";

/** Another reader in a context of the same viewport as the test's page (desktop or the 360 px phone). */
async function readerBeside(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({ viewport: page.viewportSize() });
  const other = await context.newPage();
  await register(other);
  return other;
}

/**
 * Beta reading (ADR 83), on the desktop and the 360 px phone: a First Human supporter finds the demo's draft
 * at /beta, reads it, presses a paragraph and sends a note on it; the author finds the note, its paragraph
 * quoted, beside the draft in the admin; a free reader gets the 404 for the same address.
 */
test("a First Human supporter reads the beta draft and notes a paragraph; the author reads the note; a free reader gets the 404", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await register(page);
  // Before joining: /beta says what the perk is, and /beta/11 is the 404.
  await page.goto("/beta");
  await expect(page.getByTestId("beta-perk")).toBeVisible();
  await expect(page.getByText(TITLE)).toHaveCount(0);
  expect((await page.goto(`/beta/${BETA}`))?.status()).toBe(404);

  await joinFirstHuman(page);
  await page.goto("/beta");
  await expect(page.getByTestId("beta-list")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("beta-list.png"), fullPage: true });
  await page.getByRole("link", { name: `${BETA}. ${TITLE}` }).click();
  await expect(page).toHaveURL(`/beta/${BETA}`);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText("The shot did not hit her.")).toBeVisible();
  await hydrated(page);
  await page.screenshot({ path: testInfo.outputPath("beta-chapter.png") });

  // A press on the third paragraph chooses it: the bar offers a note, the form quotes it.
  const third = page.getByTestId("beta-text").locator("#p-2");
  await third.click();
  await expect(page.getByText(b.selected.replace("{{number}}", "3"))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("beta-selected.png") });
  await page.getByRole("button", { name: b.writeNote }).click();
  const note = page.getByLabel(b.noteParagraph.replace("{{number}}", "3"));
  await expect(note).toBeFocused();
  await expect(page.getByLabel(b.paragraph, { exact: true })).toHaveValue("3");
  await expect(page.getByTestId("beta-quote")).toContainText("I didn't");
  const text = unique(`Jonah's voice here is perfect (${testInfo.project.name}) `);
  await note.fill(text);
  await page.getByRole("button", { name: b.send }).click();
  await expect(page.getByRole("status").filter({ hasText: "the author has your note" })).toBeVisible();
  await expect(page.getByLabel(b.noteChapter)).toHaveValue("");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath("beta-sent.png"), fullPage: true });

  // A free reader: the same address is the 404, with no word of the draft.
  const free = await readerBeside(browser, page);
  expect((await free.goto(`/beta/${BETA}`))?.status()).toBe(404);
  await expect(free.getByText("The shot did not hit her.")).toHaveCount(0);
  await free.context().close();

  // The author: the draft's editor says it is for beta readers, and its notes page quotes the paragraph.
  const admin = await (await browser.newContext({ viewport: page.viewportSize() })).newPage();
  const writer = await register(admin);
  await grantAuthor(writer.email);
  await admin.goto("/admin/chapters");
  await admin.getByRole("link", { name: TITLE }).click();
  const mark = admin.getByTestId("beta-mark");
  await expect(mark.getByLabel(/^For beta readers/)).toBeChecked();
  await mark.getByRole("link", { name: /notes? from beta readers/ }).click();
  await expect(admin.getByRole("heading", { level: 1, name: `Beta notes on chapter ${BETA}` })).toBeVisible();
  const item = admin.getByTestId("beta-feedback").getByRole("listitem").filter({ hasText: text });
  await expect(item).toContainText("paragraph 3");
  await expect(item.locator("blockquote")).toContainText("I didn't");
  await admin.evaluate(() => window.scrollTo(0, 0));
  await admin.screenshot({ path: testInfo.outputPath("admin-feedback.png"), fullPage: true });
  await admin.context().close();
});
