import { unzipSync } from "fflate";
import { register } from "../support/browser";
import { expect, test } from "../support/fixtures";

/**
 * The EPUB download (ADR 89) from the table of contents and /account: each link gives a file to save (an
 * EPUB whose first entry is its mimetype). The rules of what a book holds are tests/integration/epub.test.ts.
 */
test("the EPUB links on /toc and /account download a book", async ({ page, prefer }, testInfo) => {
  const saved = async (link: ReturnType<typeof page.getByTestId>, name: RegExp) => {
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(name);
    const file = await download.path();
    const { readFile } = await import("node:fs/promises");
    const entries = unzipSync(new Uint8Array(await readFile(file)));
    expect(new TextDecoder().decode(entries.mimetype)).toBe("application/epub+zip");
    return entries;
  };

  await page.goto("/toc");
  const visitorBook = await saved(page.getByTestId("epub-serial"), /^[a-z0-9-]+\.epub$/);
  expect(new TextDecoder().decode(visitorBook["EPUB/colophon.xhtml"])).toContain("a visitor");
  await page.screenshot({ path: testInfo.outputPath("toc-epub.png") });

  const reader = await register(page);
  await page.goto("/toc");
  await saved(page.getByTestId("epub-volume").first(), /-volume-1\.epub$/);
  await page.goto("/account");
  const books = page.getByRole("region", { name: "Your books" });
  await expect(books).toBeVisible();
  const own = await saved(books.getByTestId("epub-serial"), /^[a-z0-9-]+\.epub$/);
  expect(new TextDecoder().decode(own["EPUB/colophon.xhtml"])).toContain(reader.username);
  await books.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("account-epub.png") });
  await prefer({ theme: "dark" });
  await page.goto("/toc");
  await page.screenshot({ path: testInfo.outputPath("toc-epub-dark.png") });
  await page.goto("/account");
  await page.getByRole("region", { name: "Your books" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("account-epub-dark.png") });
});
