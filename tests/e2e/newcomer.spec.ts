import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const locked = en.readerPanels.locked;

/** The alpha of a computed `rgb()`/`rgba()` colour (1 when it has none). */
function alphaOf(color: string): number {
  const parts =
    /rgba?\(([^)]+)\)/
      .exec(color)?.[1]
      ?.split(/[\s,/]+/)
      .filter(Boolean) ?? [];
  return parts.length === 4 ? Number(parts[3]) : parts.length === 3 ? 1 : 0;
}

for (const theme of ["light", "dark"]) {
  test(`the sticky headers hide the text scrolling under them (${theme})`, async ({
    page,
    prefer,
  }, testInfo) => {
    await prefer({ theme });
    await page.goto("/chapter/1");
    await hydrated(page);
    await page.mouse.wheel(0, 1600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
    for (const selector of [".site-header", ".reader-header"]) {
      const background = await page
        .locator(selector)
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(alphaOf(background), `${selector} background ${background}`).toBeGreaterThanOrEqual(0.95);
    }
    await page.screenshot({ path: testInfo.outputPath(`scrolled-chapter-${theme}.png`) });
    // The brand is shown whole at every width (it wraps on a phone rather than being cut).
    const brand = page.locator(".site-title");
    await expect(brand).toHaveText("Crimson Covenant");
    const clipped = await brand.evaluate(
      (e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1,
    );
    expect(clipped, "brand clipped").toBe(false);
  });
}

test("Get More Coins from a locked chapter comes back to it with the Unlock button ready", async ({
  page,
}) => {
  await register(page);
  for (const chapter of [5, 6, 7]) {
    await page.goto(`/chapter/${chapter}`);
    await page.getByRole("button", { name: "Unlock for 1 coin" }).click();
    await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  }
  await page.goto("/chapter/4");
  await hydrated(page);
  await page.getByRole("link", { name: locked.getMoreCoins }).click();
  await expect(page).toHaveURL(/\/coins\?chapter=4$/);
  await hydrated(page);
  await page.getByRole("button", { name: "Buy 5 coins" }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await hydrated(page);
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/chapter\/4\?payment=\d+$/);
  await expect(page.getByText("Payment confirmed: 5 coins were added to your balance.")).toBeVisible();
  await expect(page.getByText("Your balance: 5 coins")).toBeVisible();
  await page.getByRole("button", { name: "Unlock for 1 coin" }).click();
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
});

test("buy and unlock: one payment opens the chapter; the table of contents shows it open to this reader only", async ({
  page,
  browser,
}, testInfo) => {
  await register(page);
  for (const chapter of [5, 6, 7]) {
    await page.goto(`/chapter/${chapter}`);
    await page.getByRole("button", { name: "Unlock for 1 coin" }).click();
    await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  }
  await page.goto("/chapter/4");
  await hydrated(page);
  await page.screenshot({ path: testInfo.outputPath("locked-offer.png"), fullPage: true });
  await page.getByRole("button", { name: "Buy 5 coins for $0.99 and unlock" }).click();
  await expect(page).toHaveURL(/\/pay\/test\/tps_/);
  await hydrated(page);
  await page.getByRole("button", { name: en.payments.test.approve }).click();
  await expect(page).toHaveURL(/\/chapter\/4\?payment=\d+$/);
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  await page.goto("/coins");
  await expect(page.getByTestId("coin-balance")).toHaveText("4");

  await page.goto("/toc");
  for (const chapter of [4, 5, 6, 7]) {
    const row = page.getByRole("link", { name: new RegExp(`^Chapter ${chapter}\\b`) });
    await expect(row).toContainText(en.toc.unlocked);
    await expect(row).not.toContainText("1 coin");
  }
  await expect(page.getByRole("link", { name: /^Chapter 8\b/ })).toContainText("1 coin");

  const visitor = await browser.newPage();
  await visitor.goto("/toc");
  await expect(visitor.getByRole("link", { name: /^Chapter 4\b/ })).toContainText("1 coin");
  await expect(visitor.getByText(en.toc.unlocked, { exact: true })).toHaveCount(0);
  await visitor.close();
});
