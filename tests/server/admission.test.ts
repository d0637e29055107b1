import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * The admission gate (server/admission.ts, ADR 68) in the built server, at its default bounds: one reader's
 * flood of requests that do database work is answered past its queue with 503 and Retry-After, while another
 * reader's requests are answered, not refused, and a kept page is answered. (Their turns among the flood's are
 * server/admission.test.ts's: over HTTP the other reader's wait was not bounded as the gate's order says, an
 * open question of ADR 68.)
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

/** The flood's connections: more than one reader's queue (8) and the slots (2) together. */
const CONNECTIONS = 30;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-admission-"));
let server: RunningServer;
const flooder = { client: undefined as unknown as Client };
const other = { client: undefined as unknown as Client };

beforeAll(async () => {
  const port = await freePort();
  server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, RENDERS_IN_FLIGHT: "1" });
  // A first start loads the demo content: slow on a busy machine.
  await waitUntilReady(server, 120_000);
  flooder.client = new Client(server.url);
  other.client = new Client(server.url);
  await registerReader(flooder.client, dataDir, "flood");
  await registerReader(other.client, dataDir, "other");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Answer = { status: number; retryAfter: string | null; body: string };

/** A GET with this client's cookies through `agent` (the flood's own connections, or a fresh one). */
function get(client: Client, pathname: string, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${server.url}${pathname}`,
      { agent, headers: { cookie: client.cookieHeader } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: (response.headers["retry-after"] as string | undefined) ?? null,
            body,
          }),
        );
      },
    );
    request.on("error", reject);
  });
}

describe("a reader's flood", () => {
  it("gets 503 with Retry-After past its queue, while another reader and a kept page are answered", async () => {
    // The table of contents kept for visitors.
    await fetch(`${server.url}/toc`);
    expect((await fetch(`${server.url}/toc`)).headers.get("x-cache")).toBe("hit");

    let flooding = true;
    const answers: Answer[] = [];
    // The flooder's progress, asked for again and again on 30 connections: a resource route's database work.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const loops = Array.from({ length: CONNECTIONS }, async () => {
      while (flooding) {
        answers.push(await get(flooder.client, "/reader/progress?chapter=1", agent));
      }
    });
    await waitFor(() => (answers.some((answer) => answer.status === 503) ? true : undefined), {
      timeout: 60_000,
      what: "the flood to be refused",
    });

    // The other reader's same request, sent while the flood's queue is full: answered, not refused.
    const probe = await get(other.client, "/reader/progress?chapter=1", false);
    // A page rendered for the other reader, and the kept page, under the same flood.
    const [page, kept] = await Promise.all([other.client.get("/polls"), fetch(`${server.url}/toc`)]);
    flooding = false;
    await Promise.all(loops);
    agent.destroy();

    expect(probe.status).toBe(200);
    expect(page.status).toBe(200);
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-cache")).toBe("hit");

    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(1);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(JSON.parse(answer.body)).toEqual({ error: "busy", retryAfter: 1 });
    }
    // The rest were answered: nothing but 200 and 503.
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    // Logged as a warning, once for the burst (at most every 10 s), never as an error.
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"admission.refused"'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(refused.length);
    expect(server.output()).not.toContain('"level":"error"');
  }, 180_000);
});
