import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";
import { middayZone } from "../support/zones";

test.use({ timezoneId: middayZone() });

test("a new reader who skims chapter 1 completes nothing, earns a bookmark's achievement once with a toast, and sees it on /achievements", async ({
  page,
}) => {
  await register(page);
  await page.goto("/chapter/1");
  await hydrated(page);
  const toast = page.locator(".toast[role=status]");
  await expect(toast).toHaveAttribute("role", "status");
  await expect(toast).toBeEmpty();
  // Straight to the end of a 2,000-word chapter: the page says it is complete, the account does not count
  // it (the reading rule: too fast for its words), so no achievement.
  const skimmed = page.waitForResponse(
    (response) => response.url().endsWith("/reader/progress") && response.request().method() === "POST",
  );
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByText("Chapter Complete!")).toBeVisible();
  expect((await (await skimmed).json()).earned).toEqual([]);
  await expect(toast).toBeEmpty();
  // A bookmark earns "Marked" at once.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("button", { name: "Bookmark" }).click();
  await expect(toast).toHaveText("Achievement earned: 🔖 Marked");
  await expect(page.getByText("Achievement earned:")).toHaveCount(1);

  await page.goto("/achievements");
  await expect(page.getByRole("heading", { level: 1, name: "Achievements" })).toBeVisible();
  const total = await page.getByTestId("achievements").locator("li").count();
  expect(total).toBeGreaterThanOrEqual(30);
  await expect(page.getByTestId("achievement-total")).toHaveText(`1/${total}`);
  const today = await page.evaluate(() =>
    new Intl.DateTimeFormat("en", { dateStyle: "long" }).format(new Date()),
  );
  const earned = page.locator('li[data-earned="true"]');
  await expect(earned).toHaveCount(1);
  await expect(earned).toContainText("Marked");
  await expect(earned).toContainText(`Earned on ${today}`);
  await expect(page.getByRole("heading", { name: "???" }).first()).toBeVisible();
  // The demo has volumes 1 and 2: no "Volume Three Complete" is offered.
  await expect(page.getByText("Volume Two Complete")).toBeVisible();
  await expect(page.getByText("Volume Three Complete")).toHaveCount(0);

  // Bookmarking another paragraph earns nothing more.
  await page.goto("/chapter/1");
  await hydrated(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
  const saved = page.waitForResponse(
    (response) => response.url().endsWith("/reader/progress") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Bookmark" }).click();
  expect((await (await saved).json()).earned).toEqual([]);
  await expect(page.locator(".toast[role=status]")).toBeEmpty();
  await page.goto("/account");
  await expect(page.getByTestId("achievement-count")).toHaveText(`1/${total}`);
  await expect(page.getByTestId("chapters-completed")).toHaveText("0");
});
