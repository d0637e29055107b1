import { grantAuthor, register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * A visitor's reading is counted anonymously (ADR 58): the chapter page sends the visitor's progress by the
 * same path as a reader's, with no cookie; the answer carries a signed view the page sends back. How much of
 * it counts is the reading rule's (tested with a held clock in tests/integration/visitor-counts.test.ts); the
 * author sees visitors' figures beside the readers'.
 */
test("a visitor's page sends its reading without a cookie and carries its view on; the author sees visitors' figures", async ({
  page,
  browser,
}, testInfo) => {
  const writes: { cookie: string | undefined; body: { view?: string } }[] = [];
  const answers: { view?: string }[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/reader/progress") && request.method() === "POST")
      writes.push({ cookie: request.headers().cookie, body: JSON.parse(request.postData() ?? "{}") });
  });
  page.on("response", async (response) => {
    if (response.url().endsWith("/reader/progress") && response.request().method() === "POST")
      answers.push(await response.json());
  });
  await page.context().clearCookies();
  await page.goto("/chapter/1");
  await hydrated(page);
  await page.mouse.move(10, 10);
  // The first write starts a view; the next carries it back. No cookie rides along (the page sets none). The
  // page sends every 15 s while reading (ADR 67): two sends take 30 s.
  await expect.poll(() => writes.length, { timeout: 40_000 }).toBeGreaterThanOrEqual(2);
  const [first, second] = writes;
  expect(first?.body.view).toBeUndefined();
  expect(first?.cookie ?? "").not.toMatch(/session|sid/i);
  await expect.poll(() => answers[0]?.view).toMatch(/^1\.\d+\.\d+\.[01]\.[01]\.[\w-]+$/);
  await expect.poll(() => writes.some((write) => write.body.view === answers[0]?.view)).toBe(true);
  expect(second).toBeDefined();

  // The author's analytics: visitors' reads and completions beside the readers' figures.
  const authorPage = await browser.newPage({ viewport: page.viewportSize() ?? undefined });
  const author = await register(authorPage);
  await grantAuthor(author.email);
  await authorPage.goto("/admin/analytics");
  await expect(authorPage.getByRole("heading", { level: 1, name: "Chapter analytics" })).toBeVisible();
  await expect(authorPage.getByTestId("first-chapter-visitors")).toContainText(
    "Views by visitors who were not signed in",
  );
  await expect(authorPage.getByRole("columnheader", { name: "Visitors started" })).toBeVisible();
  await expect(authorPage.getByRole("columnheader", { name: "Visitors finished" })).toBeVisible();
  await authorPage.screenshot({ path: testInfo.outputPath("analytics.png"), fullPage: true });
  await authorPage.goto("/admin/analytics/1");
  await expect(authorPage.getByTestId("chapter-figures")).toContainText("Visitors finished");
  await authorPage.screenshot({ path: testInfo.outputPath("analytics-chapter.png"), fullPage: true });
  await authorPage.close();
});
