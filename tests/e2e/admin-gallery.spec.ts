import { grantAuthor, register, uploadPng } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The gallery and coin pack editors in the browser. Each run of each project makes its own piece, image and
 * pack (unique names, a coin count no demo pack has), so the demo's pieces and packs, which other tests
 * read, never change under them.
 */
test("an author adds a gallery piece with an uploaded image, and reprices a coin pack; the public pages show both", async ({
  page,
}, testInfo) => {
  // Two editors, an upload and four pages' screenshots in one story: three times the ceiling of one test.
  test.slow();
  const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
  const author = await register(page);
  await grantAuthor(author.email);

  const name = `piece-${run}.png`;
  await uploadPng(page, name, 900, 600);

  // The gallery editor, from the admin's navigation.
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Gallery" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await expect(page.getByTestId("admin-gallery").getByRole("link", { name: "Ash Market" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-gallery.png"), fullPage: true });
  await page.getByRole("link", { name: "New piece" }).click();
  await hydrated(page);
  // A bad address is refused beside its field; what was typed stays.
  const title = `Lantern Row ${run}`;
  await page.getByLabel("Address").fill("Not An Address");
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Create piece" }).click();
  await expect(page.getByText("Use 1 to 80 lower-case letters, digits and single hyphens.")).toBeVisible();
  await expect(page.getByText("Choose an image.", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.getByLabel("Address").fill(`lantern-row-${run}`);
  await page.getByLabel("Image", { exact: true }).selectOption({ label: `${name} (900×600)` });
  await page.getByLabel("Description (Markdown)").fill("Drawn from the **roofs** at dusk.");
  await page.getByRole("button", { name: "Create piece" }).click();
  await expect(page.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `Edit “${title}”` })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-gallery-piece.png"), fullPage: true });

  // /gallery shows it as a <picture> of the upload, with its size and its formats.
  await page.goto("/gallery");
  const figure = page.locator("figure", { hasText: title });
  await expect(figure.locator("strong")).toHaveText("roofs");
  const image = figure.locator("picture img");
  await expect(image).toHaveAttribute("alt", title);
  await expect(image).toHaveAttribute("width", "900");
  await expect(image).toHaveAttribute("height", "600");
  await expect(figure.locator('picture source[type="image/avif"]')).toHaveCount(1);

  // A coin pack of its own, then repriced.
  const key = `e2e-${run}`.slice(0, 40);
  const coins = testInfo.project.name === "desktop" ? "4321" : "4322";
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Coin packs" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Coin packs" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin-coins.png"), fullPage: true });
  await page.getByRole("link", { name: "New pack" }).click();
  await hydrated(page);
  await page.getByLabel("Key").fill(key);
  await page.getByLabel("Coins").fill(coins);
  await page.getByLabel("Price in cents").fill("999");
  await page.getByLabel("Line under the price").fill("Made in a browser test.");
  await page.getByRole("button", { name: "Create pack" }).click();
  await expect(page.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  // Too cheap for a card payment: refused, the price typed kept.
  await page.getByLabel("Price in cents").fill("49");
  await page.getByRole("button", { name: "Save pack" }).click();
  await expect(page.getByText("Enter a price in cents, a whole number from 50 to 100000.")).toBeVisible();
  await expect(page.getByLabel("Price in cents")).toHaveValue("49");
  await page.getByLabel("Price in cents").fill("1234");
  await page.getByRole("button", { name: "Save pack" }).click();
  await expect(page.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  await expect(page.getByLabel("Price in cents")).toHaveValue("1234");
  await page.screenshot({ path: testInfo.outputPath("admin-coin-pack.png"), fullPage: true });

  await page.goto("/coins");
  const offer = page.locator("li", { has: page.locator(`[id="pack-${key}"]`) });
  await expect(offer).toContainText("$12.34");
  await expect(offer).toContainText("Made in a browser test.");
});
