import { test as base, expect, type Locator, type Page } from "@playwright/test";

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
        // A test that takes the network away (tests/e2e/offline.spec.ts) expects the requests it fails.
        const offline = message.text().includes("net::ERR_INTERNET_DISCONNECTED");
        if (!appAnswer && !offline) problems.push(`console: ${message.text()} (${url})`);
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

type RouterWindow = {
  __reactRouterRouteModules?: unknown;
  __reactRouterDataRouter?: { state: { initialized: boolean; navigation: { state: string } } };
};

/**
 * Waits until React has hydrated the page: the router has its route modules, has initialised with no
 * navigation under way, and React has taken over the body (it marks each element it hydrates). The next
 * frame lets the effects that hydration scheduled (key and touch handlers) run.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const { __reactRouterRouteModules: modules, __reactRouterDataRouter: router } = window as RouterWindow;
    return (
      modules !== undefined &&
      router?.state.initialized === true &&
      router.state.navigation.state === "idle" &&
      Object.keys(document.body).some((key) => key.startsWith("__reactFiber$"))
    );
  });
  await nextFrame(page);
}

/** Resolves after the browser's next frame: effects React scheduled before it have run. */
export function nextFrame(page: Page) {
  return page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
}

/** Waits until no client navigation is under way (one started by a click or key runs to its end). */
export async function navigationSettled(page: Page) {
  await page.waitForFunction(
    () => (window as RouterWindow).__reactRouterDataRouter?.state.navigation.state === "idle",
  );
}

/** Waits until React has hydrated this element (a lazily loaded screen keeps the server's markup until then). */
export async function elementHydrated(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber$"))),
    )
    .toBe(true);
}
