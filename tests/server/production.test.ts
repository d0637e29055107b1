import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { tempDir } from "../support/temp";

/**
 * A public production site (NODE_ENV=production, https APP_ORIGIN), served here over http on loopback as
 * behind a TLS-terminating proxy: the payment provider must be chosen, the test one is announced on every
 * page, and HSTS is on every response.
 */
const BANNER = "Payments on this site are simulated";

describe("production without a payment provider", () => {
  it("refuses to start, naming PAYMENT_PROVIDER", async () => {
    const server = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: tempDir("cc-production-"),
      APP_ORIGIN: "https://read.example",
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("PAYMENT_PROVIDER: is required in production");
  });

  it.each([
    ["SIGNUP_LIMIT_PER_HOUR", "unlimited"],
    ["RESET_LIMIT_PER_HOUR", "0"],
    ["LOG_LEVEL", "loud"],
  ])("refuses to start with %s=%s, naming it", async (name, value) => {
    const server = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: tempDir("cc-production-"),
      [name]: value,
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`${name}:`);
  });

  it("starts on http://localhost with no provider named (npm start), without the banner", async () => {
    const server = spawnServer({ PORT: String(await freePort()), DATA_DIR: tempDir("cc-production-") });
    try {
      await waitUntilReady(server);
      expect(await (await fetch(`${server.url}/`)).text()).not.toContain(BANNER);
    } finally {
      await server.stop();
    }
  });
});

describe("production with PAYMENT_PROVIDER=test on an https origin", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = spawnServer({
      PORT: String(await freePort()),
      DATA_DIR: tempDir("cc-production-"),
      APP_ORIGIN: "https://read.example",
      PAYMENT_PROVIDER: "test",
    });
    await waitUntilReady(server);
  });
  afterAll(() => server?.stop());

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathname}`, { headers, redirect: "manual" });
  const hsts = (response: Response) => response.headers.get("strict-transport-security");

  it.each(["/", "/chapter/1", "/login", "/coins", "/no-such-page"])(
    "says payments are simulated on %s",
    async (page) => {
      const response = await get(page);
      const html = await response.text();
      expect(html).toContain(BANNER);
    },
  );

  it("says so in the reader's language, and on a kept page as on a fresh one", async () => {
    expect(await (await get("/", { "accept-language": "fr" })).text()).toContain(
      "Les paiements de ce site sont simulés",
    );
    const first = await get("/toc");
    const kept = await get("/toc");
    expect(kept.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await kept.text()).toContain(BANNER);
  });

  it("sends HSTS on a page, a kept page, a static file and a hashed asset", async () => {
    const page = await get("/about");
    expect(hsts(page)).toBe("max-age=31536000; includeSubDomains");
    const html = await page.text();
    const kept = await get("/about");
    expect(kept.headers.get("etag")).toBeTruthy();
    expect(hsts(kept)).toBe("max-age=31536000; includeSubDomains");
    expect(hsts(await get("/favicon.svg"))).toBe("max-age=31536000; includeSubDomains");
    const asset = /\/assets\/[\w.-]+\.css/.exec(html)?.[0];
    expect(asset).toBeDefined();
    expect(hsts(await get(asset ?? ""))).toBe("max-age=31536000; includeSubDomains");
  });
});
