import { grantAuthor, register, uploadPng } from "../support/browser";
import { expect, hydrated, test } from "../support/fixtures";

/**
 * The shop's products in the author's admin. The test makes its own product (with its own uploaded image)
 * and deletes it at the end, so the products the shop and checkout tests buy never change under them.
 */
test("an author creates a product with an uploaded image, edits its price and stock, and the shop shows them", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "changes the shop everyone sees: one project is enough");
  // An upload, two saves and five pages: longer than most on a busy machine.
  test.setTimeout(120_000);
  const author = await register(page);
  await grantAuthor(author.email);
  const image = `pin-${Date.now()}.png`;
  await uploadPng(page, image, 800, 800);

  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "Products" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
  await expect(page.getByTestId("admin-product").first()).toBeVisible();
  await page.getByRole("link", { name: "New product" }).click();
  await hydrated(page);
  const name = `Lantern Pin ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Category", { exact: true }).selectOption({ label: "Limited" });
  await page.getByLabel("Price in cents", { exact: true }).fill("-5");
  await page.getByLabel("Stock", { exact: true }).fill("3");
  await page.getByLabel("Image", { exact: true }).selectOption({ label: `${image} (800×800)` });
  await page.getByLabel("Needs a shipping address").uncheck();
  await page.getByLabel("Description (Markdown)").fill("An enamel pin of the Watch's **lantern**.");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("Enter a price in cents from 0 to 1,000,000.")).toBeVisible();
  await page.getByLabel("Price in cents", { exact: true }).fill("1800");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  const editor = new URL(page.url()).pathname;
  const id = editor.split("/").at(-1);

  // The shop shows it at once, its upload as a picture with its own size.
  await page.goto("/shop?category=limited");
  const tile = page.locator("article", { has: page.getByRole("link", { name, exact: true }) });
  await expect(tile).toContainText("$18");
  await expect(tile.locator("picture img")).toHaveAttribute("width", "800");

  // Price and stock changed: three units plus four. Meanwhile the product is saved from another tab: the
  // first save is a conflict that keeps what was typed, and saving again applies it (the units once).
  await page.goto(editor);
  await hydrated(page);
  await expect(page.getByText("3 in stock now.")).toBeVisible();
  const other = await page.context().newPage();
  await other.goto(editor);
  await hydrated(other);
  await other.getByLabel("Price in cents", { exact: true }).fill("2000");
  await other.getByRole("button", { name: "Save product" }).click();
  await expect(other.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  await other.close();
  await page.getByLabel("Price in cents", { exact: true }).fill("2500");
  await page.getByLabel("Add or remove units", { exact: true }).fill("4");
  const base = page.locator('input[name="base"]');
  const opened = await base.inputValue();
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("alert")).toContainText("nothing was overwritten");
  // The conflict reads the row again (the other tab's save): once the form has it, a save replaces theirs.
  await expect(base).not.toHaveValue(opened);
  await expect(page.getByLabel("Price in cents", { exact: true })).toHaveValue("2500");
  await expect(page.getByLabel("Add or remove units", { exact: true })).toHaveValue("4");
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByText("Saved: every page shows the change within a second.")).toBeVisible();
  await expect(page.getByText("7 in stock now.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("product-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath("product-360.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`/shop/product/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByText("$25", { exact: true })).toBeVisible();
  await expect(page.getByText("Only 7 left")).toBeVisible();
  await expect(page.locator("strong", { hasText: "lantern" })).toBeVisible();

  await page.goto("/admin/products");
  const row = page.getByTestId("admin-product").filter({ hasText: name });
  await expect(row).toContainText("$25");
  await expect(row).toContainText("7");
  await page.screenshot({ path: testInfo.outputPath("products-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: testInfo.outputPath("products-360.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Nobody bought it: it can be deleted, and the shop no longer has it.
  await page.goto(editor);
  await hydrated(page);
  await page.getByLabel("I understand this product is deleted for good").check();
  await page.getByRole("button", { name: "Delete this product" }).click();
  await expect(page.getByText(`“${name}” was deleted.`)).toBeVisible();
  expect((await page.request.get(`/shop/product/${id}`)).status()).toBe(404);
});
