import en from "../../app/i18n/locales/en.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

const v = en.coins.volume;
const a = en.settings.autoUnlock;

/**
 * Unlocking in one go (ADR 90), as a new reader with the welcome coins: the table of contents offers volume 2's
 * locked chapters, the price comes first, then all unlock; automatic unlocking asks to confirm once, unlocks the
 * chapter reached, and stops at the cap. The rules themselves are tested in tests/integration/auto-unlock.test.ts.
 */
test("a reader unlocks a volume at once and turns automatic unlocking on", async ({
  page,
  prefer,
}, testInfo) => {
  const phone = testInfo.project.name === "phone";
  await prefer({ theme: phone ? "dark" : "light" });
  await register(page);

  await page.goto("/toc");
  await hydrated(page);
  const volume2 = page.locator("#volume-2");
  const offer = volume2.getByRole("link", { name: /Unlock this volume's 2 locked chapters/ });
  await expect(offer).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("toc.png"), fullPage: true });
  await offer.click();
  await expect(page).toHaveURL(/\/unlock\/volume\/2$/);
  await expect(page.getByText(v.total_other.replace("{{count}}", "2"))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("volume-confirmation.png"), fullPage: true });
  await page.getByRole("button", { name: v.confirm_other.replace("{{count}}", "2") }).click();
  await expect(page.getByRole("status")).toContainText("2 chapters unlocked");
  await page.goto("/chapter/8");
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();

  // Volume 1's four coin chapters cost more than the one coin left: nothing is offered to spend.
  await page.goto("/unlock/volume/1");
  await expect(page.getByText(v.insufficient)).toBeVisible();

  await page.goto("/settings#auto-unlock");
  await hydrated(page);
  const panel = page.getByRole("region", { name: a.title });
  await panel.getByLabel(a.enabled).check();
  await panel.getByLabel(a.dailyCap).fill("1");
  await panel.getByRole("button", { name: a.save, exact: true }).click();
  await expect(panel.getByRole("heading", { name: a.confirmTitle })).toBeVisible();
  await page
    .getByRole("region", { name: a.title })
    .screenshot({ path: testInfo.outputPath("auto-unlock-confirmation.png") });
  await panel.getByRole("button", { name: a.confirm }).click();
  await expect(panel.getByText(a.on)).toBeVisible();

  // Reaching chapter 4 unlocks it with the last coin; chapter 5 is past the day's cap of one.
  await page.goto("/chapter/4");
  await expect(page.locator("[data-chapter-body] > *").first()).toBeVisible();
  await page.goto("/chapter/5");
  await expect(page.getByText(en.readerPanels.locked.autoCap)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("capped.png"), fullPage: true });
});
