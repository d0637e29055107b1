import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromium } from "./chromium.mjs";

const port = Number(process.env.E2E_PORT ?? 3210);
// Each run starts the built server on a fresh data directory with the demo content.
const dataDir = path.join(os.tmpdir(), `cc-e2e-${process.pid}-${Date.now()}`);
// Workers inherit this: tests read e-mails from the outbox as an operator would.
process.env.E2E_DATA_DIR ??= dataDir;
// The server's output goes to this file beside its data, printed only when the run fails
// (tests/support/server-log-reporter.ts).
process.env.E2E_SERVER_LOG ??= `${process.env.E2E_DATA_DIR}.log`;

const launchOptions = chromium;

/**
 * The specs run again at 360 px (ADR 103): what a page looks like and how it is read and used on a phone (every
 * page's walk, the public pages, the reader, menus, forms, the shop's cards, the editor behind its tab). A flow
 * whose steps are the same at any width (payments, refunds, e-mails, sign-in codes, offline reading, the
 * author's other tools) runs on the desktop only: its pages are walked at 360 px by every-page.spec.ts.
 */
const phoneSpecs = [
  "achievements",
  "admin",
  "beta",
  "checkout",
  "comments",
  "every-page",
  "first-paint",
  "fundraiser",
  "language-urls",
  "navigation",
  "newcomer",
  "preview",
  "progress-sends",
  "public-pages",
  "reader",
  "reading-themes",
  "settings",
  "shop-buy-now",
  "shop-cart",
  "side-by-side",
  "site-chrome",
  "titles",
  "toc-search",
  "translations",
  "unlock-in-one-go",
];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [
    ["list"],
    ["html", { open: "never", outputFolder: "playwright-report" }],
    ["./tests/support/server-log-reporter.ts"],
  ],
  // A ceiling for one test on a shared 2-core machine, not a figure under test: 120 s, since on a 2-core machine at
  // less than half the usual speed an author's order, shipped and refunded, took over 60 s.
  timeout: 120_000,
  // An assertion waits up to 10 s: a client navigation on a busy 2-core machine (lazy route module, catalogue
  // chunk and loader data) passed 5 s once in CI (stop 26). Still a ceiling, not a figure under test.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // The demo's untouched figures (tests/e2e/fresh.spec.ts), read before any other test changes them.
    {
      name: "fresh",
      testMatch: /fresh\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    // The figures payments move, to the cent (tests/e2e/figures.spec.ts): one test at a time, no other running.
    {
      name: "figures",
      dependencies: ["fresh"],
      testMatch: /figures\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: "desktop",
      dependencies: ["figures"],
      testIgnore: /(fresh|figures|release)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: "phone",
      dependencies: ["figures"],
      testMatch: new RegExp(`/(${phoneSpecs.join("|")})\\.spec\\.ts$`),
      use: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 }, launchOptions },
    },
    // A chapter published for tomorrow and the test clock moved past it (tests/e2e/release.spec.ts): last, as
    // both change what every other page shows.
    {
      name: "release",
      dependencies: ["desktop", "phone"],
      testMatch: /release\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions },
    },
  ],
  webServer: {
    command: `exec node server.mjs > '${process.env.E2E_SERVER_LOG}' 2>&1`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "warn",
      // Every browser test signs up from 127.0.0.1; the limits themselves are tested elsewhere.
      SIGNUP_LIMIT_PER_HOUR: "10000",
      RESET_LIMIT_PER_HOUR: "10000",
      INQUIRY_LIMIT_PER_HOUR: "10000",
      CHECKOUT_LIMIT_PER_HOUR: "10000",
      // /admin/clock moves the release time (ADR 39); only tests/e2e/release.spec.ts moves it.
      TEST_CLOCK: "true",
    },
  },
});
