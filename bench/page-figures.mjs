// Figures of a page that bench/run.mjs and bench/page-weight.mjs both take.
import fs from "node:fs";
import path from "node:path";
import { chromium as browserType } from "@playwright/test";
import { chromium } from "../chromium.mjs";

/** The length of the chapter text's own markup in a chapter page (0 for other pages). */
export function chapterTextLength(html) {
  return (/<article[^>]*data-chapter-body[^>]*>([\s\S]*?)<\/article>/.exec(html)?.[1] ?? "").length;
}

/**
 * The JavaScript a page loads without any interaction: every script the browser fetched by the time the
 * page has hydrated and the network is quiet, sized as the server sends it (the pre-compressed .br file).
 * Opens each URL in a fresh context; returns, per URL, the scripts' paths and their brotli bytes.
 */
export async function loadedScripts(urls) {
  const browser = await browserType.launch(chromium);
  const out = {};
  try {
    for (const url of urls) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => "__reactRouterRouteModules" in window);
      await page.waitForLoadState("networkidle");
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => new URL(entry.name).pathname)
          .filter((pathname) => pathname.endsWith(".js")),
      );
      const brotliBytes = scripts.reduce(
        (sum, script) => sum + fs.statSync(path.join("build/client", `${script}.br`)).size,
        0,
      );
      out[url] = { scripts, brotliBytes };
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
