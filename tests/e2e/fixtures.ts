import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every test fails on a console error or an uncaught page error, and can set the reader's language and theme
 * the way the site stores them (cookies).
 */
export const test = base.extend<{
  // biome-ignore lint/suspicious/noConfusingVoidType: Playwright types an automatic fixture with no value as void
  failOnConsoleErrors: void;
  prefer: (prefs: { lang?: string; theme?: string }) => Promise<void>;
}>({
  failOnConsoleErrors: [
    async ({ page }, use, testInfo) => {
      const problems: string[] = [];
      const expects404 = testInfo.annotations.some((annotation) => annotation.type === "expects-404");
      page.on("console", (message) => {
        // The browser reports a 404 document as a failed resource; a test that expects one says so.
        if (message.type() !== "error" || (expects404 && /status of 404/.test(message.text()))) return;
        problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await use();
      expect(problems, "console errors").toEqual([]);
    },
    { auto: true },
  ],
  prefer: async ({ context, baseURL }, use) => {
    await use(async ({ lang, theme }) => {
      const url = baseURL ?? "http://127.0.0.1";
      const cookies = [];
      if (lang) cookies.push({ name: "lang", value: lang, url });
      if (theme) cookies.push({ name: "theme", value: theme, url });
      await context.addCookies(cookies);
    });
  },
});

export { expect };

/** Waits until React has hydrated the page (the router sets this global once it has). */
export async function hydrated(page: Page) {
  await page.waitForFunction(
    () => (window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await page.waitForLoadState("networkidle");
}
