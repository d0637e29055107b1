// One Lighthouse run (mobile, performance and accessibility), its report written as JSON: what the CLI does
// (`npx lighthouse URL --output=json`: Chromium started by chrome-launcher with its default flags, a new tab
// through Puppeteer, the run in it), with one option the CLI has not. The bench's lighthouse part runs it as
// its own process, once a run (bench/run.mjs).
//
// --without-worker: the tab's pages find no `navigator.serviceWorker`, so the boot script registers no offline
// worker (public/sw.js, ADR 96): the page as a browser without the worker gets it. Lighthouse's own
// `--blocked-url-patterns` cannot do this: it blocks the page's requests, and Chromium fetches a worker's
// script outside them (with `--blocked-url-patterns=*/sw.js` the server still answered GET /sw.js and the
// worker's requests after it).
//
// Usage: node bench/lighthouse-once.mjs URL --output-path=FILE [--extra-headers=JSON] [--without-worker]
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";
import { chromium } from "../chromium.mjs";

const [url] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const out = option("output-path");
if (!url || !out) {
  console.error(
    "usage: node bench/lighthouse-once.mjs URL --output-path=FILE [--extra-headers=JSON] [--without-worker]",
  );
  process.exit(2);
}
const extraHeaders = option("extra-headers") ? JSON.parse(option("extra-headers")) : undefined;

const chrome = await chromeLauncher.launch({
  chromePath: chromium.executablePath,
  chromeFlags: chromium.args,
  logLevel: "silent",
});
try {
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const page = await browser.newPage();
  // Before any script of every document of the tab: the getter is on the prototype, so `"serviceWorker" in
  // navigator` is false afterwards, as in a browser without service workers.
  if (process.argv.includes("--without-worker"))
    await page.evaluateOnNewDocument("delete Navigator.prototype.serviceWorker");
  const result = await lighthouse(
    url,
    {
      port: chrome.port,
      output: "json",
      logLevel: "silent",
      onlyCategories: ["performance", "accessibility"],
      ...(extraHeaders ? { extraHeaders } : {}),
    },
    undefined,
    page,
  );
  if (!result) throw new Error("Lighthouse gave no result");
  fs.writeFileSync(out, JSON.stringify(result.lhr));
  await browser.disconnect();
} finally {
  chrome.kill();
}
