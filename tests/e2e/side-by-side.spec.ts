import { createRequire } from "node:module";
import type { Locator, Page } from "@playwright/test";
import es from "../../app/i18n/locales/es.json" with { type: "json" };
import { register } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

// ADR 97: a chapter shown in a translation, side by side with its original, paragraph by paragraph (the demo
// translates chapters 1-3 into Spanish). Two columns on a desktop, the original above its translation at 360 px.
const labels = es.readerPanels.settings;

/** Chooses side by side on or off in the chapter's settings sheet, and closes it. */
async function chooseSideBySide(page: Page, on: boolean, screenshot?: string) {
  await page.getByRole("button", { name: es.reader.settings.open }).click();
  const group = page.getByRole("dialog").getByRole("group", { name: labels.sideBySide });
  await expect(group).toHaveAccessibleDescription(labels.sideBySideHint);
  await group.getByText(on ? labels.sideBySides.on : labels.sideBySides.off, { exact: true }).click();
  if (screenshot) {
    await group.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot });
  }
  await page.keyboard.press("Escape");
}

/** axe-core's contrast findings in the chapter's text, light and dark: the muted original stays readable. */
async function contrastFindings(page: Page) {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  const findings: string[] = [];
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle("dark", on), dark);
    const ids = await page.evaluate(async () => {
      type Axe = { run: (context: Element, options: object) => Promise<{ violations: { id: string }[] }> };
      const axe = (window as unknown as { axe: Axe }).axe;
      const body = document.querySelector("[data-chapter-body]") as Element;
      const result = await axe.run(body, { runOnly: { type: "rule", values: ["color-contrast"] } });
      return result.violations.map((violation) => violation.id);
    });
    findings.push(...ids.map((id) => `${dark ? "dark" : "light"}: ${id}`));
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  return findings;
}

/** Ids on the page more than once (none may be: the original's blocks lose theirs). */
const repeatedIds = (page: Page) =>
  page.evaluate(() => {
    const ids = [...document.querySelectorAll("[id]")].map((element) => element.id);
    return ids.filter((id, index) => ids.indexOf(id) !== index);
  });

async function expectPairs(page: Page, body: Locator, phone: boolean) {
  const first = body.locator(":scope > .pair").first();
  const original = first.locator(".pair-original");
  const translation = first.locator(".pair-translation");
  await expect(original).toHaveAttribute("lang", "en");
  await expect(original).toContainText("The ash came down");
  await expect(translation).toHaveAttribute("lang", "es");
  await expect(translation).toContainText("La ceniza empezó a caer");
  // Every translated paragraph is in a row with the original's (the map, or by place), each once.
  expect(await body.locator(":scope > .pair > .pair-translation > p").count()).toBeGreaterThan(10);
  await expect(body.locator(":scope > .pair .pair-original [id]")).toHaveCount(0);
  expect(await repeatedIds(page)).toEqual([]);
  // The original reads muted and smaller; on a desktop beside its translation, on a phone above it.
  const [originalSize, translationSize] = await Promise.all(
    [original, translation].map((side) =>
      side
        .locator("p")
        .first()
        .evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize)),
    ),
  );
  expect(originalSize).toBeLessThan(translationSize as number);
  const [left, right] = await Promise.all([original.boundingBox(), translation.boundingBox()]);
  if (!left || !right) throw new Error("a row's sides are not shown");
  if (phone) expect(right.y).toBeGreaterThanOrEqual(left.y + left.height - 1);
  else {
    expect(right.x).toBeGreaterThanOrEqual(left.x + left.width);
    expect(Math.abs(right.y - left.y)).toBeLessThan(2);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("a visitor turns side by side on in /es/chapter/1, reads both languages paragraph by paragraph, then turns it off", async ({
  page,
}, testInfo) => {
  const phone = testInfo.project.name.includes("phone");
  await page.goto("/es/chapter/1");
  await hydrated(page);
  const body = page.locator("[data-chapter-body]");
  await expect(body.locator(".pair")).toHaveCount(0);

  await chooseSideBySide(page, true, testInfo.outputPath(`sheet-${phone ? "360" : "desktop"}.png`));
  await expectPairs(page, body, phone);
  await page.screenshot({ path: testInfo.outputPath(`side-by-side-${phone ? "360" : "desktop"}.png`) });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(`side-by-side-top-${phone ? "360" : "desktop"}.png`) });

  // A paragraph's link still opens the chapter at the translated paragraph, and a bookmark marks it.
  await page.goto("/es/chapter/1#p-6");
  await hydrated(page);
  await expectPairs(page, body, phone);
  const sixth = page.locator("#p-6");
  await expect(sixth).toBeInViewport();
  await expect(sixth.locator("xpath=..")).toHaveClass("pair-translation");
  await page.getByRole("button", { name: es.reader.bookmarks.toggle }).click();
  await expect(body.locator(".pair-translation > [data-bookmarked]")).toHaveCount(1);
  await expect(body.locator(".pair-original [data-bookmarked]")).toHaveCount(0);

  // The English page is as ever.
  await page.goto("/en/chapter/1");
  await hydrated(page);
  await expect(body.locator(".pair")).toHaveCount(0);
  await expect(body.locator(":scope > p#p-0")).toContainText("The ash came down");

  // The cookie lost, the browser's stored setting still on: the page asks for the pairs again.
  await page.context().clearCookies({ name: "sbs" });
  await page.goto("/es/chapter/1#p-8");
  await hydrated(page);
  await expect(body.locator(".pair").first()).toBeVisible();
  // Turned off, the reader stays at the paragraph they were reading.
  await expect(page.locator("#p-8")).toBeInViewport();
  await chooseSideBySide(page, false);
  await expect(body.locator(".pair")).toHaveCount(0);
  await expect(page.locator("#p-8")).toBeInViewport();
  await expect(body.locator(":scope > p#p-0")).toContainText("La ceniza empezó a caer");
  await page.reload();
  await hydrated(page);
  await expect(body.locator(".pair")).toHaveCount(0);
});

test("a signed-in reader's side by side is saved on the account and rendered by the server", async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name.includes("phone"), "the server's rendering is the same on every screen");
  await register(page);
  await page.goto("/es/chapter/2");
  await hydrated(page);
  await chooseSideBySide(page, true);
  await expect(page.locator("[data-chapter-body] > .pair").first()).toBeVisible();

  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await expect
    .poll(async () =>
      (await (await request.get("/es/chapter/2", { headers: { cookie } })).text()).includes(
        'class="pair-original" lang="en"',
      ),
    )
    .toBe(true);
});

test.describe("contrast", () => {
  // axe-core is added to the page as an inline script, which the site's CSP refuses.
  test.use({ bypassCSP: true });
  test("the muted original and its translation keep their contrast, light and dark", async ({ page }) => {
    await page.goto("/es/chapter/1");
    await hydrated(page);
    await chooseSideBySide(page, true);
    await expect(page.locator("[data-chapter-body] > .pair").first()).toBeVisible();
    expect(await contrastFindings(page)).toEqual([]);
  });
});
