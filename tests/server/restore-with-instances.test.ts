import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { restoreBackup, writeBackup } from "#db/backup.server";
import { openDatabase } from "#db/client.server";
import { Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { createPostgresDatabase } from "../support/postgres";
import { type RunningServer, startInstances } from "../support/server";

/**
 * `npm run db -- restore` on PostgreSQL while two app instances run on the database (ADR 61): the restore
 * puts the session events back (their ids to values the instances have read) and deletes sessions without
 * any event, so each instance learns it from the database epoch the restore moves. A session the restore
 * removed, and a logout on one instance after it, are honoured by the other at its next read of the events.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);
const PASSWORD = "first secret";

describe.runIf(inject("postgres"))("a restore while two instances run on PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<void> };
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  let reader = "";
  beforeAll(async () => {
    database = await createPostgresDatabase();
    await startInstances(database.url, { count: 2, prefix: "cc-restore-", servers, dirs });
    const [a] = servers as [RunningServer];
    reader = await registerReader(new Client(a.url), a.env.DATA_DIR ?? "", "restored");
  });
  afterAll(async () => {
    for (const server of servers) expect(await server.stop()).toBe(0);
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  function dbCommand(args: string[]) {
    return run(process.execPath, ["--import", "tsx", "scripts/db.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: database.url },
    });
  }

  async function signIn(server: RunningServer): Promise<Client> {
    const client = new Client(server.url);
    const answer = await client.post("/login", { email: `${reader}@example.com`, password: PASSWORD });
    expect(answer.headers.get("location")).toBe("/account");
    return client;
  }

  /**
   * The status of /account for a session (its cookie header, taken before a logout clears the client's),
   * asked of `server`: 200 while it holds, 302 once ended.
   */
  async function account(server: RunningServer, cookie: string): Promise<number> {
    const answer = await fetch(`${server.url}/account`, {
      headers: { cookie },
      redirect: "manual",
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  /** Waits until `server` sends `client` to sign in (at its next read of the session events). */
  async function untilSignedOut(server: RunningServer, cookie: string, what: string): Promise<void> {
    await waitFor(async () => ((await account(server, cookie)) === 302 ? true : undefined), {
      interval: 20,
      what,
    });
  }

  /**
   * Session events after the backup, so the restore puts their ids back below what B has read; the last is
   * a logout on A that B is seen to honour, so B has read them all. Then a session the backup does not hold,
   * kept on B (its /account asked for twice).
   */
  async function eventsAfterBackup(): Promise<string> {
    const [a, b] = servers as [RunningServer, RunningServer];
    for (let i = 0; i < 4; i++) expect((await (await signIn(a)).post("/logout", {})).status).toBe(302);
    const last = await signIn(a);
    const lastCookie = last.cookieHeader;
    expect(await account(b, lastCookie)).toBe(200);
    expect(await account(b, lastCookie)).toBe(200);
    expect((await last.post("/logout", {})).status).toBe(302);
    await untilSignedOut(b, lastCookie, "B to honour the logout before the restore");
    const gone = (await signIn(a)).cookieHeader;
    expect(await account(b, gone)).toBe(200);
    expect(await account(b, gone)).toBe(200);
    return gone;
  }

  /** After the restore: the session it removed ends on B, and a restored session's logout on A reaches B. */
  async function honouredAfterRestore(gone: string, restored: Client): Promise<void> {
    const b = servers[1] as RunningServer;
    await untilSignedOut(b, gone, "B to drop the session the restore removed");
    const cookie = restored.cookieHeader;
    expect(await account(b, cookie)).toBe(200);
    expect(await account(b, cookie)).toBe(200);
    expect((await restored.post("/logout", {})).status).toBe(302);
    await untilSignedOut(b, cookie, "B to honour the logout on A");
  }

  it("honours sessions the pg_restore removed and logouts after it", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const restored = await signIn(a);
    expect(await account(b, restored.cookieHeader)).toBe(200);
    const file = path.join(dirs[0] ?? "", "site.pgdump");
    expect((await dbCommand(["backup", file])).stdout).toContain("pg_dump");
    const gone = await eventsAfterBackup();
    expect((await dbCommand(["restore", file])).stdout).toContain("pg_restore");
    await honouredAfterRestore(gone, restored);
  });

  it("honours sessions the JSON-lines restore removed and logouts after it", async () => {
    const [a] = servers as [RunningServer];
    const restored = await signIn(a);
    const handle = await openDatabase({ kind: "postgres", url: database.url });
    try {
      const lines: string[] = [];
      await writeBackup(handle, (line) => {
        lines.push(line);
      });
      const gone = await eventsAfterBackup();
      // What `npm run db -- restore` runs for a JSON-lines backup, given the lines from memory.
      expect(await restoreBackup(handle, fromArray(lines))).toBeGreaterThan(0);
      await honouredAfterRestore(gone, restored);
    } finally {
      await handle.close();
    }
  });
});

async function* fromArray(lines: string[]): AsyncIterable<string> {
  yield* lines;
}
