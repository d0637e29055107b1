import { elementHydrated, expect, hydrated, test } from "../support/fixtures";

test.describe("the side menu", () => {
  test("opens from the keyboard, traps focus, closes on Escape and navigates", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const trigger = page.getByRole("link", { name: "Open menu" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    for (const name of [
      "Home",
      "Chapters/TOC",
      "World Building",
      "Shop",
      "Fundraiser",
      "My Account",
      "About",
      "Login",
      "Register",
    ]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    // The page the menu was opened on is marked as current; "/" matches itself only.
    await expect(menu.getByRole("link", { name: "Home", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(menu.getByRole("link", { name: "Shop", exact: true })).not.toHaveAttribute("aria-current");
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect(await menu.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();

    await trigger.click();
    await menu.getByRole("link", { name: "Shop", exact: true }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
    await expect(page.locator("body")).toHaveAttribute("data-route-theme", "shop");
  });
});

test.describe("theme", () => {
  test("follows the system on a first visit, then the saved choice, rendered by the server", async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/about");
    await hydrated(page);
    await expect(page.locator("html")).toHaveClass(/dark/);

    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value)
      .toBe("light");
    const light = await page.request.get("/about");
    expect(await light.text()).not.toMatch(/<html[^>]*class="dark"/);

    await page.reload();
    await hydrated(page);
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value)
      .toBe("dark");
    const dark = await page.request.get("/about");
    expect(await dark.text()).toMatch(/<html[^>]*class="dark"/);
  });
});

test.describe("language", () => {
  test("the picker switches the whole interface and the choice persists", async ({ page }) => {
    await page.goto("/toc");
    await hydrated(page);
    await page.getByLabel("Language").selectOption("es");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tu viaje te espera");
    await expect(page).toHaveURL(/\/toc$/);
    await page.goto("/shop");
    await expect(page.getByRole("link", { name: "Todo" })).toBeVisible();
  });

  test("a chapter loads the core catalogue only; a client navigation brings the next page's texts", async ({
    page,
    prefer,
  }) => {
    await prefer({ lang: "ja" });
    const catalogues: string[] = [];
    page.on("request", (request) => {
      const chunk = /\/assets\/((?:core|pages)-\w+)-/.exec(request.url());
      if (chunk?.[1]) catalogues.push(chunk[1]);
    });
    await page.goto("/chapter/1");
    await hydrated(page);
    expect(catalogues).toEqual(["core-ja"]);

    await page.getByRole("link", { name: "メニューを開く" }).click();
    await page.getByRole("dialog").getByRole("link", { name: "ログイン", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("おかえりなさい");
    await expect(page.getByLabel("パスワード", { exact: true })).toBeVisible();
    expect(catalogues).toEqual(["core-ja", "pages-ja"]);
  });

  test("Accept-Language decides without a cookie", async ({ browser }) => {
    const context = await browser.newContext({ locale: "fr-FR" });
    const page = await context.newPage();
    await page.goto("/toc");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre voyage vous attend");
    await context.close();
  });
});

test.describe("table of contents", () => {
  test("lists volumes with statuses; Reverse Order reverses volumes and chapters; locked rows are not links", async ({
    page,
  }) => {
    await page.goto("/toc");
    await hydrated(page);
    const rows = page.locator("main ol > li");
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toContainText("Chapter 1");
    await expect(rows.first()).toContainText("FREE");
    await expect(rows.nth(3)).toContainText("1 coin");
    await expect(rows.last()).toContainText(/Releases Dec 1[45]/);
    await expect(rows.last().locator("a")).toHaveCount(0);
    await expect(page.locator('a[href="/chapter/10"]')).toHaveCount(0);

    await page.getByRole("button", { name: "Reverse Order" }).click();
    await expect(page.getByRole("button", { name: "Reverse Order" })).toHaveAttribute("aria-pressed", "true");
    await expect(rows.first()).toContainText("Chapter 10");
    await expect(page.locator("main h2").first()).toContainText("The Ancient Bloodline");
  });

  test("shows the skeleton only while the data is on its way", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/toc.data*", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Table of Contents" }).first().click();
    await expect(page.locator('[aria-busy="true"]')).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Your Journey Awaits" })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  });
});

test.describe("not found", () => {
  test("an unknown path shows the 404 page with a way home", async ({ page }) => {
    const response = await page.goto("/nowhere");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  // The layout's error screens are fetched by the browser only when shown: hydrating one keeps the
  // server's markup until its code is in.
  test("a page whose data is not found shows the layout's 404 screen, which works once hydrated", async ({
    page,
  }) => {
    const response = await page.goto("/wiki/nobody");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await hydrated(page);
    await elementHydrated(page.getByRole("link", { name: "Go Home" }));
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("pages render on the server, filters and the language form work", async ({ page }) => {
    await page.goto("/toc");
    await expect(page.locator("main ol > li")).toHaveCount(10);
    await page.goto("/shop");
    await page.getByRole("link", { name: "Prints" }).click();
    await expect(page).toHaveURL(/category=prints/);
    await expect(page.locator("main article")).toHaveCount(2);
    await page.getByLabel("Language").selectOption("ja");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page).toHaveURL(/category=prints/);
  });
});

test.describe("the reader's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("is remembered in the tz cookie once the page has shown, for the server's dates", async ({
    page,
    context,
  }) => {
    await page.goto("/about");
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "tz")?.value)
      .toBe("Asia%2FTokyo");
  });
});
