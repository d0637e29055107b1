import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { chapterForm } from "../support/admin";
import { Client, registerReader } from "../support/http";
import { waitForMail } from "../support/mail";
import { softwarePasskey } from "../support/passkey";
import { waitFor } from "../support/poll";
import { createPostgresDatabase, postgresAdminUrl } from "../support/postgres";
import { type RunningServer, startServer } from "../support/server";
import { TcpProxy } from "../support/tcp-proxy";

/**
 * The database going away under a running server on PostgreSQL (ADR 14): connections killed under load,
 * and the database unreachable for a moment. The server stays up, answers 503 with Retry-After meanwhile,
 * and serves again by itself within a second.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startOn(databaseUrl: string): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-outage-"));
  const server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
  });
  cleanups.push(async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}

async function signedIn(server: RunningServer): Promise<Client> {
  const client = new Client(server.url);
  await registerReader(client, server.env.DATA_DIR ?? "", "outage", { confirmed: true });
  return client;
}

function progressBody(paragraph: number): string {
  const progress = {
    scrollPosition: 0.5,
    paragraph,
    completionPercentage: 40,
    readingTime: 60,
    completed: false,
    bookmarks: [],
    lastReadAt: new Date().toISOString(),
  };
  return JSON.stringify({ entries: [{ chapter: 1, progress }] });
}

function saveProgress(client: Client, paragraph: number): Promise<Response> {
  return fetch(`${client.base}/reader/progress`, {
    method: "POST",
    body: progressBody(paragraph),
    headers: {
      cookie: client.cookieHeader,
      origin: client.base,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
  });
}

type Outcome = { what: string; status: number | "reset"; retryAfter: string | null; type: string | null };

async function record(what: string, request: Promise<Response>): Promise<Outcome> {
  try {
    const response = await request;
    await response.arrayBuffer();
    return {
      what,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      type: response.headers.get("content-type"),
    };
  } catch {
    return { what, status: "reset", retryAfter: null, type: null };
  }
}

/**
 * Retries `attempt` until it answers 200. The server must recover by itself (no restart); how fast is the
 * revision poll's second, which a shared test machine cannot time reliably, so the wait has only a ceiling.
 */
async function untilOk(attempt: () => Promise<Response>): Promise<void> {
  let last: string | undefined;
  await waitFor(
    async () => {
      const response = await attempt().catch((error: Error) => {
        last = error.message;
      });
      if (response?.status === 200) return true;
      if (response) last = `${response.status} ${await response.text()}`;
      return undefined;
    },
    { timeout: 10_000, interval: 20, what: "a 200" },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${last}`);
  });
}

/**
 * An author's sign-in waiting for its e-mailed code on a new device, and a reader with an authenticator app
 * and passkey options given: `writes` sends each of the second step's writes (the code, a passkey's
 * enrolment, a new authenticator, a removal, new recovery codes); `untouched` checks, once the database is
 * back, that none of them was half-done (the code still signs in, the factor and its ten codes are there,
 * the passkey's answer still enrols it).
 */
async function secondStepUnderway(server: RunningServer, reader: Client, authorEmail: string) {
  const { Secret, TOTP } = await import("otpauth");
  const newDevice = new Client(server.url);
  const started = await newDevice.post("/login", { email: authorEmail, password: "first secret" });
  expect(started.headers.get("location")).toBe("/login/verify");
  const mail = await waitForMail(server.env.DATA_DIR ?? "", authorEmail, { containing: "sign-in code" });
  const code = /sign-in code: (\d{6})/.exec(mail)?.[1] ?? "";

  const setup = await (await reader.post("/settings/security", { intent: "totp-start" })).text();
  const secret = /data-testid="totp-secret">([A-Z2-7 ]+)</.exec(setup)?.[1]?.replace(/ /g, "") ?? "";
  const factorId = /name="factorId" value="(\d+)"/.exec(setup)?.[1] ?? "";
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  const on = await reader.post("/settings/security", {
    intent: "totp-confirm",
    factorId,
    code: totp.generate(),
  });
  expect(await on.text()).toContain("The authenticator app is on.");
  const options = await reader.post("/settings/security/passkey", {});
  const { challenge } = (await options.json()) as { challenge: string };
  const passkey = JSON.stringify(
    softwarePasskey(`http://localhost:${new URL(server.url).port}`).register(challenge),
  );
  const spanish = { "accept-language": "es" };
  const security = (fields: Record<string, string>) => reader.post("/settings/security", fields, spanish);

  return {
    writes: async (): Promise<[string, Response][]> => [
      ["email-code", await newDevice.post("/login/verify", { intent: "email-code", code }, spanish)],
      ["passkey-register", await security({ intent: "passkey-register", response: passkey })],
      ["totp-start", await security({ intent: "totp-start" })],
      ["remove", await security({ intent: "remove", factorId, currentPassword: "first secret" })],
      ["recovery-codes", await security({ intent: "recovery-codes", currentPassword: "first secret" })],
    ],
    untouched: async () => {
      const signedIn = await newDevice.post("/login/verify", { intent: "email-code", code });
      expect(signedIn.headers.get("location")).toBe("/account");
      expect((await newDevice.get("/account")).status).toBe(200);
      const page = await (await reader.get("/settings/security")).text();
      expect(page).toContain("Remove Authenticator app");
      expect(page).toContain("You have 10 unused recovery codes.");
      const enrolled = await reader.post("/settings/security", {
        intent: "passkey-register",
        response: passkey,
      });
      expect(await enrolled.text()).toContain("The passkey is added.");
    },
  };
}

describe.runIf(inject("postgres"))("a database outage on PostgreSQL", () => {
  it("survives its connections being terminated under 20 writers, answering 503 meanwhile", async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const server = await startOn(database.url);
    const reader = await signedIn(server);
    // A comment of the reader's on chapter 1, for the comments' reads and hearts below (issue 21).
    const posted = await reader.post("/chapter/1/comments", { intent: "post", body: "Through the outage." });
    const comment = /#comment-(\d+)$/.exec(posted.headers.get("location") ?? "")?.[1] ?? "";
    expect(comment).not.toBe("");
    const name = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    cleanups.push(() => admin.end());

    const outcomes: Outcome[] = [];
    let running = true;
    const writer = async (index: number) => {
      for (let n = 0; running; n++) {
        outcomes.push(await record("progress", saveProgress(reader, index * 1000 + n)));
        // Every fifth request of some writers is a signed-in page or its route data.
        if (index % 4 === 0 && n % 5 === 0) {
          outcomes.push(await record("page", reader.get("/account")));
          // The reader's own new pages: achievements (awarded on the visit) and the subscription.
          outcomes.push(await record("page", reader.get("/achievements")));
          outcomes.push(await record("page", reader.get("/account/subscription")));
          // /settings and one of its writes (the page comes back with the notice).
          outcomes.push(await record("page", reader.get("/settings")));
          outcomes.push(
            await record("page", reader.post("/settings", { intent: "emailChoices", newChapters: "on" })),
          );
          outcomes.push(await record("data", reader.get("/about.data")));
          // Chapter comments: their route data, and a heart set or taken off (idempotent, so each can repeat).
          outcomes.push(
            await record("data", reader.get("/chapter/1/comments.data?_routes=routes%2Fchapter-comments")),
          );
          const heart = { intent: "heart", comment, on: n % 2 ? "1" : "0" };
          outcomes.push(await record("data", reader.post("/chapter/1/comments.data", heart)));
        }
      }
    };
    const writers = Array.from({ length: 20 }, (_, index) => writer(index));
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      // Each round cuts the connections once the writers have gone on writing through the last cut.
      const seen = outcomes.length;
      await waitFor(() => (outcomes.length >= seen + 20 ? true : undefined), { what: "20 more requests" });
      const result = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
      terminated += result.rowCount ?? 0;
    }
    await untilOk(() => saveProgress(reader, 99_999)).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output().slice(-3000)}`);
    });
    running = false;
    await Promise.all(writers);

    expect(terminated).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) {
      expect(outcome).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    }
    expect(
      failed.filter((o) => o.what === "progress").every((o) => o.type?.startsWith("application/json")),
    ).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/Unexpected Server Error|uncaught/i);
  });

  it("reports the database down on /healthz while it is unreachable, and serves again when it is back", async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const target = new URL(postgresAdminUrl());
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.open();
    cleanups.push(() => proxy.cut());
    const url = new URL(database.url);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const server = await startOn(url.toString());
    const reader = await signedIn(server);
    // An author with chapter 1's editor open when the database goes away.
    const author = new Client(server.url);
    const authorName = await registerReader(author, server.env.DATA_DIR ?? "", "outageauthor");
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    await direct.query("update users set role = 'author' where username = $1", [authorName]);
    await direct.end();
    const edit = await chapterForm(author, 1, { bodyMd: "Written while the database was away." });
    const secondStep = await secondStepUnderway(server, reader, `${authorName}@example.com`);

    const cutAt = server.output().length;
    await proxy.cut();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await health.json()).toEqual({
      status: "unavailable",
      database: "postgres",
      databaseState: "down",
    });

    // A browser's page: the translated "try again" screen, 503.
    const page = await reader.get("/account", { "accept-language": "es" });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    const html = await page.text();
    expect(html).toContain("Servicio no disponible");
    expect(html).toContain('lang="es"');
    // A client navigation's route data and a JSON resource route.
    const data = await reader.get("/about.data");
    expect(data.status).toBe(503);
    expect(data.headers.get("retry-after")).toMatch(/^\d+$/);
    const write = await saveProgress(reader, 7);
    expect(write.status).toBe(503);
    expect(write.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await write.json()).toEqual({ error: "database-unavailable" });
    // The author's save: a 503 to try again (the editor keeps the text in the browser), never a 500.
    const save = await author.post("/admin/chapters/1", edit);
    expect(save.status).toBe(503);
    expect(save.headers.get("retry-after")).toMatch(/^\d+$/);

    // The second step's writes (ADR 65): the translated page, 503, whichever was sent.
    for (const [intent, answer] of await secondStep.writes()) {
      expect({ intent, status: answer.status }).toEqual({ intent, status: 503 });
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await answer.text()).toContain("Servicio no disponible");
    }

    // The revision poll keeps failing meanwhile (two failed polls logged since the cut); the process stays.
    await waitFor(
      () =>
        server.output().slice(cutAt).split("content revision poll failed").length > 2 ? true : undefined,
      { what: "two failed revision polls" },
    );
    expect(server.child.exitCode).toBeNull();

    await proxy.restore();
    await untilOk(() => fetch(`${server.url}/healthz`));
    await untilOk(() => saveProgress(reader, 8));
    expect((await reader.get("/account")).status).toBe(200);
    // Sent again once it is back, the same form saves: nothing was half-written meanwhile.
    const saved = await author.post("/admin/chapters/1", edit);
    expect(saved.status).toBe(302);
    expect(await (await reader.get("/chapter/1")).text()).toContain("Written while the database was away.");
    await secondStep.untouched();
  });
});
