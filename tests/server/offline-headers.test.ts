import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { tempDir } from "../support/temp";

/**
 * What the built server tells the offline worker (ADR 96): a chapter the reader may read is marked for
 * keeping, with the next chapter, on a fresh page and on a kept one alike; a locked chapter's page never;
 * the worker's script is checked on each visit and the manifest is served.
 */
describe("offline reading's headers", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = spawnServer({ PORT: String(await freePort()), DATA_DIR: tempDir("cc-offline-") });
    await waitUntilReady(server);
  });
  afterAll(() => server?.stop());
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  it("marks a readable chapter page, fresh and kept, and never a locked one", async () => {
    for (const path of ["/chapter/1", "/chapter/1", "/es/chapter/1"]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get("x-offline"), path).toBe("keep, next=2");
    }
    // Chapter 4 costs a coin: a visitor's page of it has no text and no mark.
    const locked = await get("/chapter/4");
    expect(locked.status).toBe(200);
    expect(locked.headers.get("x-offline")).toBeNull();
    // The worker's ask ahead (a prefetch) gets the same answer.
    const ahead = await get("/chapter/4", { headers: { Purpose: "prefetch" } });
    expect(ahead.headers.get("x-offline")).toBeNull();
    // Other pages: never.
    for (const path of ["/", "/toc", "/chapter/99999"])
      expect((await get(path)).headers.get("x-offline"), path).toBeNull();
  });

  it("serves the worker to be checked on each visit, and the manifest, under the CSP", async () => {
    const worker = await get("/sw.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    expect(worker.headers.get("service-worker-allowed")).toBe("/");
    expect(worker.headers.get("content-type")).toMatch(/javascript/);
    const manifest = await get("/manifest.webmanifest");
    expect(manifest.status).toBe(200);
    const body = (await manifest.json()) as { icons: { src: string }[] };
    for (const icon of body.icons)
      expect((await get(icon.src)).headers.get("content-type")).toBe("image/png");
    const csp = (await get("/chapter/1")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});
