import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSocketPath } from "../../server/admin-socket";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * What the edge refuses, over HTTP against the built server (ADR 64): methods the site does not answer,
 * text the database cannot store (a NUL) anywhere in a request, and each refusal in the log at its real
 * status and level: never an error line, which is kept for the failures of ours an operator must look at.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-refusals-"));
let server: RunningServer;
let reader: Client;
let other: Client;
let author: Client;
let authorName: string;

beforeAll(async () => {
  const port = await freePort();
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    RESET_LIMIT_PER_HOUR: "1",
  });
  // A first start loads the demo content: slow on a busy machine.
  await waitUntilReady(server, 90_000);
  reader = new Client(server.url);
  author = new Client(server.url);
  await registerReader(reader, dataDir, "refused", { confirmed: true });
  other = new Client(server.url);
  await registerReader(other, dataDir, "reporter", { confirmed: true });
  authorName = await registerReader(author, dataDir, "edgeauthor");
  await run(
    process.execPath,
    ["--import", "tsx", "scripts/admin.ts", "grant-author", `${authorName}@example.com`],
    {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    },
  );
}, 180_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type LogLine = { level: string; status?: number; method?: string; url?: string; msg?: string; ms?: number };

/** The server's JSON log lines written since `from` (an offset in its output). */
function logSince(from: number): LogLine[] {
  return server
    .output()
    .slice(from)
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);
}

/**
 * Waits for the access log lines (the ones with `ms`) of `count` requests after `from`, written as each
 * response ends and read from the server's output a moment after the client has the answer; a refusal's own
 * line is written before its answer, so it is there too. Returns every line since `from`.
 */
async function accessLines(from: number, count: number): Promise<LogLine[]> {
  await waitFor(
    () => (logSince(from).filter((line) => line.ms !== undefined).length >= count ? true : undefined),
    { what: `${count} access log lines` },
  );
  return logSince(from);
}

function expectNoErrorLine(lines: LogLine[]) {
  expect(lines.filter((line) => line.level === "error" || line.level === "fatal")).toEqual([]);
}

/** Sends raw bytes on a connection and resolves with the whole answer, as text. */
function rawRequest(text: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(text));
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

function assetPath(): string {
  const name = fs.readdirSync("build/client/assets").find((file) => file.endsWith(".js"));
  return `/assets/${name}`;
}

describe("methods the site does not answer", () => {
  it("answers TRACE, OPTIONS, PUT, DELETE, PATCH and PROPFIND on any URL with 405 and Allow, no error logged", async () => {
    const from = server.output().length;
    const urls = ["/healthz", "/favicon.svg", assetPath(), "/", "/chapter/1", "/admin", "/nothing-here"];
    const methods = ["TRACE", "OPTIONS", "PUT", "DELETE", "PATCH", "PROPFIND"];
    for (const url of urls) {
      for (const method of methods) {
        const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
          const request = http.request(`${server.url}${url}`, { method }, (response) => {
            response.resume();
            response.once("end", () => resolve(response));
          });
          request.on("error", reject);
          request.end();
        });
        expect(answer.statusCode, `${method} ${url}`).toBe(405);
        expect(answer.headers.allow, `${method} ${url}`).toBe("GET, HEAD, POST");
      }
    }
    const lines = await accessLines(from, urls.length * methods.length);
    expect(lines.filter((line) => line.status === 405)).toHaveLength(urls.length * methods.length);
    expectNoErrorLine(lines);
  });

  it("answers CONNECT with 405 and closes; made-up and lowercase methods get Node's 400; none logs an error", async () => {
    const from = server.output().length;
    const connect = await rawRequest("CONNECT /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(connect).toMatch(/^HTTP\/1\.1 405 /);
    expect(connect).toContain("Allow: GET, HEAD, POST");
    for (const method of ["FOO", "get", "Trace"]) {
      const answer = await rawRequest(`${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer, method).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
    await waitFor(
      () =>
        logSince(from).some(
          (line) => line.method === "CONNECT" && line.status === 405 && line.level === "info",
        )
          ? true
          : undefined,
      { what: "CONNECT's log line" },
    );
    expectNoErrorLine(logSince(from));
  });

  it("still answers GET, HEAD and POST", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/chapter/1`, { method: "HEAD" })).status).toBe(200);
    expect((await reader.post("/preferences", { theme: "dark", redirectTo: "/" })).status).toBe(302);
  });
});

/** The comment ids on chapter 1's comments page, as the reader sees it. */
async function commentsPage(): Promise<string> {
  return (await reader.get("/chapter/1/comments")).text();
}

describe("a NUL anywhere in a request", () => {
  it("refuses a comment's body and a report's reason with 400 in the reader's language; nothing is stored", async () => {
    const from = server.output().length;
    const marker = `nul-comment-${Date.now()}`;
    const html = { accept: "text/html", "accept-language": "fr" };
    const posted = await reader.post(
      "/chapter/1/comments",
      { intent: "post", body: `${marker} \u0000 here` },
      html,
    );
    expect(posted.status).toBe(400);
    const page = await posted.text();
    expect(page).toContain('lang="fr"');
    expect(page).toContain("Rien n’a été enregistré");
    expect(await commentsPage()).not.toContain(marker);

    const kept = await reader.post("/chapter/1/comments?order=oldest", { intent: "post", body: marker });
    expect(kept.status).toBe(302);
    const comment = /#comment-(\d+)$/.exec(kept.headers.get("location") ?? "")?.[1] ?? "";
    expect(comment).not.toBe("");
    // Another reader reports it (one's own comment is not reported).
    const reported = await other.post("/chapter/1/comments.data?_routes=routes%2Fchapter-comments", {
      intent: "report",
      comment,
      reason: "spam\u0000",
    });
    expect(reported.status).toBe(400);
    expect(await reported.json()).toEqual({ error: "unstorable-text" });
    // The same report without the NUL is taken.
    const again = await other.post("/chapter/1/comments.data?_routes=routes%2Fchapter-comments", {
      intent: "report",
      comment,
      reason: "spam",
    });
    expect(again.status).toBeLessThan(400);
    expectNoErrorLine(await accessLines(from, 5));
  });

  it("refuses ?q=%00 on the admin lists, a NUL in the grant-author e-mail and in a multipart preview", async () => {
    const from = server.output().length;
    const lists = [
      "/admin/orders",
      "/admin/readers",
      "/admin/payments",
      "/admin/chapters",
      "/admin/subscriptions",
    ];
    for (const list of lists) {
      expect((await author.get(`${list}?q=%00`)).status, list).toBe(400);
      expect((await author.get(`${list}?q=a%00b&page=2`)).status, list).toBe(400);
      // The list itself is there: the refusal is the NUL's.
      expect((await author.get(`${list}?q=a`)).status, list).toBe(200);
    }
    const grant = await author.post("/admin/authors", { intent: "grant", email: "x\u0000@example.com" });
    expect(grant.status).toBe(400);
    const form = new FormData();
    form.set("bodyMd", "a\u0000b");
    const preview = await fetch(`${server.url}/admin/preview`, {
      method: "POST",
      body: form,
      headers: { cookie: author.cookieHeader, origin: server.url },
    });
    expect(preview.status).toBe(400);
    expectNoErrorLine(await accessLines(from, lists.length * 3 + 2));
  });

  it("refuses a NUL in a path, a cookie and a JSON string, and a lone surrogate in JSON", async () => {
    const from = server.output().length;
    expect((await fetch(`${server.url}/chapter/1%00`)).status).toBe(400);
    expect((await fetch(`${server.url}/`, { headers: { cookie: "lang=%00" } })).status).toBe(400);
    for (const lastReadAt of ["2026-11-25T00:00:00Z\u0000", "\ud800"]) {
      const response = await fetch(`${server.url}/reader/progress`, {
        method: "POST",
        body: JSON.stringify({
          entries: [
            {
              chapter: 1,
              progress: {
                scrollPosition: 0.5,
                paragraph: 3,
                completionPercentage: 50,
                readingTime: 10,
                completed: false,
                bookmarks: [],
                lastReadAt,
              },
            },
          ],
        }),
        headers: { cookie: reader.cookieHeader, origin: server.url, "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "unstorable-text" });
    }
    expectNoErrorLine(await accessLines(from, 4));
  });

  it("refuses a NUL in the e-mail `npm run admin -- grant-author` hands the running server", async () => {
    // A command line cannot carry a NUL (the system's strings end at one): what the command sends the
    // server, over its admin socket, is checked there.
    const answer = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { socketPath: adminSocketPath(dataDir), path: "/role", method: "POST" },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify({ email: `${authorName}\u0000@example.com`, grant: true }));
    });
    expect(answer).toBe(400);
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/admin.ts", "grant-author", `${authorName}@example.com`],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" } },
    );
    expect(stdout).toContain("already has that role");
  });
});

describe("refusals in the log", () => {
  it("logs a POST whose Origin is not the request's own as one warning at 403, never an error", async () => {
    const from = server.output().length;
    const forged: Record<string, string>[] = [
      { origin: "http://evil.example", "sec-fetch-site": "same-origin" },
      { origin: "null", "sec-fetch-site": "same-origin" },
      { origin: "http://localhost:1" },
      { origin: "not a url", "sec-fetch-site": "none" },
      { origin: server.url, "sec-fetch-site": "cross-site" },
    ];
    for (const headers of forged) {
      const response = await fetch(`${server.url}/login`, {
        method: "POST",
        body: new URLSearchParams({ email: "a@example.com", password: "x" }),
        headers,
        redirect: "manual",
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    const lines = await accessLines(from, forged.length);
    const warnings = lines.filter((line) => line.msg === "cross-origin write refused");
    expect(warnings).toHaveLength(forged.length);
    for (const warning of warnings) expect(warning).toMatchObject({ level: "warn", status: 403 });
    expectNoErrorLine(lines);
  });

  it("logs a 413, a 404, a 405 and a 429 at their status, never as an error", async () => {
    const from = server.output().length;
    const tooLarge = await fetch(`${server.url}/register`, {
      method: "POST",
      body: "a".repeat(100 * 1024),
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(tooLarge.status).toBe(413);
    const chunked = await fetch(`${server.url}/register`, {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("a".repeat(100 * 1024)));
          controller.close();
        },
      }),
      duplex: "half",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await fetch(`${server.url}/nothing-here`)).status).toBe(404);
    // A form sent to no route is a 404 as the page is (ADR 63); a method the site does not answer, a 405.
    expect((await reader.post("/nothing-here", { a: "b" })).status).toBe(404);
    expect((await fetch(`${server.url}/toc`, { method: "PUT" })).status).toBe(405);
    const visitor = new Client(server.url);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push((await visitor.post("/forgot-password", { email: "nobody@example.com" })).status);
    }
    expect(statuses).toContain(429);
    const lines = await accessLines(from, 7);
    for (const status of [413, 404, 405, 429]) {
      expect(
        lines.some((line) => line.status === status && line.level === "info"),
        String(status),
      ).toBe(true);
    }
    expectNoErrorLine(lines);
  });
});
