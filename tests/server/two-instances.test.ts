import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chapterForm } from "../support/admin";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { createPostgresDatabase } from "../support/postgres";
import { type RunningServer, startInstances } from "../support/server";

/**
 * Two app instances on one PostgreSQL database, as behind a load balancer: nothing a reader does on one is
 * unknown to the other, and a content change reaches both at their next revision poll (every second). The
 * session events are read every 250 ms (under fake timers in session-cache.server.test.ts); here the waits
 * are for the change to be seen, their ceilings for a hung test, not a figure under test.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

describe.runIf(inject("postgres"))("two instances on one PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    database = await createPostgresDatabase();
    await startInstances(database.url, { count: 2, prefix: "cc-two-", servers, dirs });
  });
  afterAll(async () => {
    for (const server of servers) expect(await server.stop()).toBe(0);
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shares accounts, sessions, unlocks and content between them", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const onA = new Client(a.url);
    const name = await registerReader(onA, a.env.DATA_DIR ?? "", "twin");

    const onB = new Client(b.url);
    const signIn = await onB.post("/login", { email: `${name}@example.com`, password: "first secret" });
    expect(signIn.headers.get("location")).toBe("/account");

    expect((await onB.get("/chapter/4")).status).toBe(200);
    expect(await (await onB.get("/chapter/4")).text()).toContain("Chapter Locked");
    expect((await onA.post("/chapter/4", { intent: "unlock" })).status).toBe(200);
    const unlocked = await (await onB.get("/chapter/4")).text();
    expect(unlocked).not.toContain("Chapter Locked");
    expect(unlocked).toContain("electric light");

    // B's session is known on A, and B's logout ends it there too: A's kept session and the account page
    // kept for it (ADR 53) last until A next reads the session events.
    const sessionOfB = onB.cookieHeader;
    const accountOnA = () =>
      fetch(`${a.url}/account`, { headers: { cookie: sessionOfB }, redirect: "manual" });
    expect((await accountOnA()).status).toBe(200);
    expect((await accountOnA()).status).toBe(200);
    expect((await onB.post("/logout", {})).status).toBe(302);
    const afterLogout = await waitFor(
      async () => {
        const reply = await accountOnA();
        return reply.status === 302 ? reply : undefined;
      },
      { interval: 20, what: "the logout on A" },
    );
    expect(afterLogout.headers.get("location")).toMatch(/^\/login/);

    // A content change made outside both is seen by both (the revision poll).
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("update chapters set title = $1 where number = 1", ["Renamed By Another Hand"]);
    } finally {
      await admin.end();
    }
    // Seen at each one's next revision poll; the wait's ceiling is for a hung test, not a figure under test.
    await Promise.all(
      [a, b].map((server) =>
        waitFor(
          async () =>
            (await (await fetch(`${server.url}/toc`)).text()).includes("Renamed By Another Hand")
              ? true
              : undefined,
          { what: `the renamed chapter on ${server.url}` },
        ),
      ),
    );
  });

  it("shows an author's save on one instance on the other", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const author = new Client(a.url);
    const name = await registerReader(author, a.env.DATA_DIR ?? "", "writer");
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("update users set role = 'author' where username = $1", [name]);
    } finally {
      await admin.end();
    }
    const text = `Written on one instance at ${Date.now()}.`;
    const saved = await author.post("/admin/chapters/2", await chapterForm(author, 2, { bodyMd: text }));
    expect(saved.status).toBe(302);
    expect(await (await fetch(`${a.url}/chapter/2`)).text()).toContain(text);
    await waitFor(
      async () => ((await (await fetch(`${b.url}/chapter/2`)).text()).includes(text) ? true : undefined),
      {
        what: "the saved text on the other instance",
      },
    );
  });
});
