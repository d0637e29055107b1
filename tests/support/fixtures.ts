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
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        // A 4xx answer to a page or its route data (a 404 page, a refused form) is the app speaking, and the
        // browser reports it as a failed resource; a 4xx for a script, style or image is a real error.
        const url = message.location().url ?? "";
        const appAnswer = /status of 4\d\d/.test(message.text()) && !/\/(assets|media)\//.test(url);
        if (!appAnswer) problems.push(`console: ${message.text()} (${url})`);
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
