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
import { middayZone } from "../support/zones";

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

/** A fresh database and a server reaching it through a TCP relay the test can cut (`proxy.cut()`). */
async function startBehindProxy() {
  const database = await createPostgresDatabase();
  cleanups.push(database.drop);
  const target = new URL(postgresAdminUrl());
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.open();
  cleanups.push(() => proxy.cut());
  const url = new URL(database.url);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  return { database, proxy, server: await startOn(url.toString()) };
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
    // A comment of the reader's on chapter 1, for the comments' reads and hearts below.
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
    const { database, proxy, server } = await startBehindProxy();
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
    // A download (ADR 89): 503 to try again, never a half-made file.
    const book = await reader.get("/epub");
    expect(book.status).toBe(503);
    expect(book.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(book.headers.get("content-disposition")).toBeNull();
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

/**
 * The database going away while a batch of progress writes is in flight (ADR 67). A batch is one transaction,
 * so the rows it had already written are rolled back; each write of it, and each write queued behind it,
 * answers 503 with Retry-After, none hangs; once the database is back the same writes are kept, exactly.
 */
describe.runIf(inject("postgres"))("a progress batch cut off on PostgreSQL", () => {
  const zone = middayZone();
  /** A write of chapter `chapter` claiming `seconds` of reading, with bookmark `bookmark`. */
  const entry = (chapter: number, seconds: number, bookmark: number) => ({
    chapter,
    progress: {
      scrollPosition: 0.5,
      paragraph: bookmark,
      completionPercentage: 50,
      readingTime: seconds,
      completed: false,
      bookmarks: seconds === 0 ? [] : [bookmark],
      lastReadAt: new Date(Date.now() - 60_000).toISOString(),
    },
  });
  const send = (reader: Client, entries: ReturnType<typeof entry>[]) =>
    fetch(`${reader.base}/reader/progress`, {
      method: "POST",
      body: JSON.stringify({ entries }),
      headers: {
        cookie: `${reader.cookieHeader}; tz=${zone}`,
        origin: reader.base,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
      },
    });

  // Twice in CI (stop 46) a write answered 503 was found committed: its batch had committed before the cut,
  // and the achievements looked at after it met the cut. A committed write now answers 200 whatever comes
  // after (achievementsAfterWrite), which is what this test holds.
  it("rolls the whole batch back, answers each of its writes 503, and keeps them all once back", async () => {
    const { database, proxy, server } = await startBehindProxy();
    // Straight to the database, not through the proxy: the test's view, and its row locks.
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    cleanups.push(() => direct.end());
    const readers: { client: Client; id: number }[] = [];
    for (let index = 0; index < 4; index++) {
      const client = await signedIn(server);
      const { rows } = await direct.query("select id from users order by id desc limit 1");
      readers.push({ client, id: rows[0].id });
    }
    const [first, cut] = readers as [(typeof readers)[0], (typeof readers)[0]];

    // Each reader opens chapters 1 to 3 (the first write only starts the reading rule's count), then an hour
    // passes on the server's clock since (the marks moved back: a built server reads the real clock).
    for (const reader of readers)
      expect(
        (
          await send(
            reader.client,
            [1, 2, 3].map((chapter) => entry(chapter, 0, 0)),
          )
        ).status,
      ).toBe(200);
    await direct.query("update reading_progress set counted_at = counted_at - interval '1 hour'");
    const state = async () =>
      (
        await direct.query(
          `select u.id, u.last_read_on::text,
             (select json_agg(json_build_object('chapter', chapter_id, 'seconds', reading_time_seconds,
               'bookmarks', bookmarks) order by chapter_id) from reading_progress where user_id = u.id) as progress,
             (select coalesce(sum(seconds), 0)::int from reading_days where user_id = u.id) as seconds
           from users u where u.id = any($1) order by u.id`,
          [readers.map((reader) => reader.id)],
        )
      ).rows;

    // Two readers' rows locked as another instance's batch would: a batch of `first` waits at its last
    // statement (the newest reading day), after its progress and reading days are written in its
    // transaction; then the batch with `cut`'s writes in it waits there too.
    const holders = [
      new pg.Client({ connectionString: database.url }),
      new pg.Client({ connectionString: database.url }),
    ];
    for (const [index, holder] of holders.entries()) {
      await holder.connect();
      cleanups.push(() => holder.end());
      await holder.query("begin");
      await holder.query("select id from users where id = $1 for no key update", [[first, cut][index]?.id]);
    }
    const waitingOnLock = () =>
      direct
        .query(
          `select query from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and query like '%last_read_on%'`,
          [new URL(database.url).pathname.slice(1)],
        )
        .then((result) => (result.rows.length > 0 ? (result.rows[0].query as string) : undefined));
    const firstWrite = send(first.client, [entry(1, 40, 1)]);
    await waitFor(waitingOnLock, { what: "the first batch waiting at its last statement" });
    // Meanwhile many writes queue: every reader's chapters, several claims each.
    const writes = readers.flatMap((reader) =>
      [1, 2, 3].flatMap((chapter) =>
        [20, 50, 80].map((seconds) => ({
          reader,
          entries: [entry(chapter, seconds, chapter * 100 + seconds)],
        })),
      ),
    );
    const answers = writes.map(({ reader, entries }) => record("progress", send(reader.client, entries)));
    await holders[0]?.query("rollback");
    expect((await firstWrite).status).toBe(200);
    // The batch with `cut`'s first write waits at its last statement, its rows written: cut it off then.
    // The writes queued in time went in the batches before it (committed), the rest wait behind it.
    const blocked = await waitFor(waitingOnLock, { what: "a batch waiting at its last statement" });
    await proxy.cut();
    const outcomes = await Promise.all(answers);
    await holders[1]?.query("rollback");

    // Every write answered: 200 if its batch committed, else 503 (retry), `cut`'s all among those.
    for (const outcome of outcomes)
      if (outcome.status !== 200)
        expect(outcome).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    const failed = writes.filter((_, index) => outcomes[index]?.status !== 200);
    expect(failed.filter((write) => write.reader === cut)).toHaveLength(9);
    // What the database has is exactly what the answered writes wrote: the cut batch left no row behind.
    const expected = (answered: (write: (typeof writes)[number]) => boolean) =>
      readers.map((reader) => {
        const progress = [1, 2, 3].map((chapter) => {
          const kept = writes
            .filter((write) => write.reader === reader && answered(write))
            .map((write) => write.entries[0])
            .filter((sent) => sent?.chapter === chapter)
            .map((sent) => sent?.progress as { readingTime: number; bookmarks: number[] });
          if (reader === first && chapter === 1) kept.push({ readingTime: 40, bookmarks: [1] });
          return {
            seconds: Math.max(0, ...kept.map((sent) => sent.readingTime)),
            bookmarks: kept.flatMap((sent) => sent.bookmarks).sort((x, y) => x - y),
          };
        });
        return { progress, seconds: progress.reduce((sum, chapter) => sum + chapter.seconds, 0) };
      });
    const leftNow = await state();
    expect(leftNow.map(({ progress, seconds }) => ({ progress, seconds }))).toMatchObject(
      expected((write) => !failed.includes(write)),
    );
    expect(leftNow.find((row) => row.id === cut.id)?.last_read_on).toBeNull();
    expect(blocked).toContain("last_read_on");

    await proxy.restore();
    await untilOk(() => send(first.client, [entry(1, 40, 1)]));
    // Sent again once it is back, the failed writes are kept: each chapter counts its largest claim, every
    // bookmark stays, and the reading days add up.
    for (const { reader, entries } of failed) expect((await send(reader.client, entries)).status).toBe(200);
    const leftAfter = await state();
    expect(leftAfter.map(({ progress, seconds }) => ({ progress, seconds }))).toMatchObject(
      expected(() => true),
    );
    for (const row of leftAfter) {
      expect(row.seconds).toBe(3 * 80);
      expect(row.last_read_on).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(Date.now()));
    }
    expect(server.output()).not.toMatch(/Unexpected Server Error|uncaught/i);
  });

  it("answers 200 to a write whose batch committed though the achievements looked at after it are cut off", async () => {
    const { database, proxy, server } = await startBehindProxy();
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    cleanups.push(() => direct.end());
    const reader = await signedIn(server);
    // The achievements' read waits on this lock, after the write's batch has committed; then the cut.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query("begin");
    await holder.query("lock table user_achievements in access exclusive mode");
    // A bookmark: a write that may earn an achievement.
    const answer = record("progress", send(reader, [entry(1, 30, 7)]));
    await waitFor(
      () =>
        direct
          .query("select 1 from pg_locks where not granted and relation = 'user_achievements'::regclass")
          .then((result) => (result.rows.length > 0 ? true : undefined)),
      { what: "the achievements waiting on the lock" },
    );
    await proxy.cut();
    await holder.query("rollback");
    // Kept, and said so: sent again, the reader's write would only be merged into itself.
    expect(await answer).toMatchObject({ status: 200 });
    const { rows } = await direct.query(
      "select bookmarks from reading_progress where chapter_id = (select id from chapters where number = 1)",
    );
    expect(rows[0]?.bookmarks).toEqual([7]);
    expect(server.output()).toContain("achievements not evaluated after a kept progress write");
  });
});
