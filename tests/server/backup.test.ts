import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "#db/client.server";
import { buyArtPrint, Client, registerReader } from "../support/http";
import { waitFor } from "../support/poll";
import { createPostgresDatabase } from "../support/postgres";
import { freePort, type RunningServer, spawnServer, startServer, waitUntilReady } from "../support/server";
import { snapshot } from "../support/snapshot";

/**
 * `npm run db -- backup|restore` as an operator runs it (ADR 14): on PGlite while the server runs (the
 * server writes the backup), then restored into an empty data directory; on PostgreSQL with pg_dump.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const run = promisify(execFile);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The operator's command; a restore that hangs (it once did, holding every table) fails after two minutes. */
function dbCommand(args: string[], env: Record<string, string>) {
  return run(process.execPath, ["--import", "tsx", "scripts/db.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
    timeout: 120_000,
  });
}

async function balance(client: Client): Promise<number> {
  const html = await (await client.get("/coins")).text();
  const match = /data-testid="coin-balance"[^>]*>([\d,]+)</.exec(html);
  if (!match?.[1]) throw new Error("no balance on /coins");
  return Number(match[1].replace(/,/g, ""));
}

/** What a reader sees of their own: balance, an unlocked chapter, an order, the account page. */
async function readerView(client: Client) {
  const chapter = await (await client.get("/chapter/4")).text();
  const order = await client.get("/orders/1");
  const account = await client.get("/account");
  return {
    balance: await balance(client),
    unlocked: !chapter.includes("Chapter Locked") && chapter.includes("electric light"),
    order: order.status,
    orderShowsPrint: (await order.text()).includes("Art Print"),
    account: account.status,
  };
}

async function pgliteSnapshot(dataDir: string) {
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pgdata") });
  try {
    return await snapshot(handle.db);
  } finally {
    await handle.close();
  }
}

/** The backup file's rows by table, as text and sorted like `snapshot`'s. */
function rowsOf(file: string): Record<string, string[]> {
  const tables: Record<string, string[]> = {};
  let table: string[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
    if (!line) continue;
    const value = JSON.parse(line);
    if (typeof value.table === "string" && Object.keys(value).length === 1) {
      table = [];
      tables[value.table] = table;
    } else table.push(line);
  }
  for (const rows of Object.values(tables)) rows.sort();
  return tables;
}

describe("backup and restore with npm run db", () => {
  let dataDir = "";
  let server: RunningServer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-backup-"));
    server = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("backs up a running PGlite site through the server; a restore gives back exactly the backup's rows", async () => {
    const client = new Client(server.url);
    await registerReader(client, dataDir, "kept");
    const file = path.join(tempDir("cc-backup-file-"), "site.backup");

    const { stdout } = await dbCommand(["backup", file], { DATA_DIR: dataDir });
    expect(stdout).toContain("by the running server");
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    // It holds password and session-token hashes: its owner's alone.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const backedUp = rowsOf(file);
    expect(backedUp.users).toHaveLength(1);
    // Written after the backup: gone after the restore.
    await registerReader(new Client(server.url), dataDir, "later");
    // A restore while the server runs is refused, and changes nothing.
    await expect(dbCommand(["restore", file], { DATA_DIR: dataDir })).rejects.toThrow(
      /stop it before restoring/,
    );
    expect(await server.stop()).toBe(0);

    await dbCommand(["restore", file], { DATA_DIR: dataDir });
    // The session events are notices for running servers, never backed up (db/backup.server.ts).
    expect(backedUp.session_events).toBeUndefined();
    expect(backedUp.content_changes).toBeUndefined();
    const {
      content_revision: _,
      session_events: _notices,
      content_changes: _changes,
      ...restored
    } = await pgliteSnapshot(dataDir);
    const { content_revision: __, ...wanted } = backedUp;
    expect(restored).toEqual(wanted);
  }, 180_000);

  it.runIf(inject("postgres"))(
    "backs up PostgreSQL with pg_dump and restores it with pg_restore",
    async () => {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const server = spawnServer({
        PORT: String(await freePort()),
        DATA_DIR: tempDir("cc-backup-pg-"),
        DATABASE_URL: database.url,
      });
      cleanups.push(() => server.stop());
      await waitUntilReady(server);
      await registerReader(new Client(server.url), server.env.DATA_DIR ?? "");
      const file = path.join(tempDir("cc-backup-file-"), "site.dump");

      await dbCommand(["backup", file], { DATABASE_URL: database.url });
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("PGDMP");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const handle = await openDatabase({ kind: "postgres", url: database.url });
      cleanups.push(() => handle.close());
      const expected = await snapshot(handle.db);
      expect(expected.users).toHaveLength(1);
      await handle.db.execute("truncate users, chapters, volumes restart identity cascade");
      expect((await snapshot(handle.db)).users).toEqual([]);

      // A request holds a table the restore locks late and then wants one it locked early, the order that
      // deadlocked pg_restore and the site's writes: the restore gives way, then restores.
      const request = new pg.Client({ connectionString: database.url });
      await request.connect();
      cleanups.push(() => request.end());
      await request.query("begin");
      await request.query("lock table reading_progress in row exclusive mode");
      const restoring = dbCommand(["restore", file], { DATABASE_URL: database.url });
      await waitFor(
        async () => {
          const { rows } = await request.query(
            "select 1 from pg_locks where not granted and pid <> pg_backend_pid() and locktype = 'relation'",
          );
          return rows.length > 0 ? true : undefined;
        },
        { timeout: 60_000, what: "the restore to wait for reading_progress" },
      );
      await request.query("lock table achievements in row exclusive mode");
      await request.query("commit");
      expect((await restoring).stdout).toContain("restored");
      expect(await snapshot(handle.db)).toEqual(expected);
      // The running server serves the restored database.
      expect((await fetch(`${server.url}/chapter/1`)).status).toBe(200);
    },
    180_000,
  );

  it.runIf(inject("postgres"))(
    "moves a running PGlite site to PostgreSQL as the README says: the same sign-ins, balances, unlocks and orders",
    async () => {
      const pgliteDir = tempDir("cc-move-pglite-");
      const source = await startServer({ DATA_DIR: pgliteDir });
      cleanups.push(() => source.stop());
      const client = new Client(source.url);
      const name = await registerReader(client, pgliteDir, "mover");
      expect((await client.post("/chapter/4", { intent: "unlock" })).status).toBe(200);
      await buyArtPrint(client);
      const seen = await readerView(client);
      expect(seen).toEqual({
        balance: seen.balance,
        unlocked: true,
        order: 200,
        orderShowsPrint: true,
        account: 200,
      });

      // The README's commands: a backup of the running site, then a restore into an empty PostgreSQL.
      const file = path.join(tempDir("cc-move-file-"), "site.backup");
      await dbCommand(["backup", file], { DATA_DIR: pgliteDir });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(await source.stop()).toBe(0);
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const { stdout } = await dbCommand(["restore", file], { DATABASE_URL: database.url });
      expect(stdout).toMatch(/^restored \d+ rows from /);

      const target = spawnServer({
        PORT: String(await freePort()),
        DATA_DIR: tempDir("cc-move-pg-"),
        DATABASE_URL: database.url,
      });
      cleanups.push(() => target.stop());
      await waitUntilReady(target);
      for (const page of ["/", "/toc", "/shop", "/chapter/1"])
        expect((await fetch(`${target.url}${page}`)).status, page).toBe(200);
      // The session signed in on PGlite goes on; the password signs in anew.
      const kept = new Client(target.url);
      kept.cookies = client.cookies;
      expect(await readerView(kept)).toEqual(seen);
      const again = new Client(target.url);
      const login = await again.post("/login", { email: `${name}@example.com`, password: "first secret" });
      expect(login.headers.get("location")).toBe("/account");
      expect(await readerView(again)).toEqual(seen);
      // New rows continue after the restored ones.
      const other = new Client(target.url);
      await registerReader(other, target.env.DATA_DIR ?? "", "after");
      expect((await other.get("/account")).status).toBe(200);
    },
    180_000,
  );

  it.runIf(inject("postgres"))(
    "a restore killed halfway leaves PostgreSQL as it was and holds no lock",
    async () => {
      const pgliteDir = tempDir("cc-kill-pglite-");
      const file = path.join(tempDir("cc-kill-file-"), "site.backup");
      await dbCommand(["backup", file], { DATA_DIR: pgliteDir });
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      await dbCommand(["restore", file], { DATABASE_URL: database.url });
      const sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
      cleanups.push(() => sql.end());
      await sql.query("update content_revision set revision = 41");
      // A request holds a table: the restore locks the ones before it and waits, then is killed.
      await sql.query("begin");
      await sql.query("lock table reading_progress in row exclusive mode");
      const child = execFile(process.execPath, ["--import", "tsx", "scripts/db.ts", "restore", file], {
        env: { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: database.url },
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      cleanups.push(() => {
        if (child.exitCode === null) child.kill("SIGKILL");
        return exited;
      });
      await waitFor(
        async () => {
          const { rows } = await sql.query(
            "select 1 from pg_locks where not granted and pid <> pg_backend_pid() and locktype = 'relation'",
          );
          return rows.length > 0 ? true : undefined;
        },
        { timeout: 60_000, what: "the restore to hold tables and wait" },
      );
      child.kill("SIGKILL");
      await exited;
      await sql.query("commit");
      await waitFor(
        async () => {
          const { rows } = await sql.query(
            "select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
          );
          return rows.length === 0 ? true : undefined;
        },
        { what: "the killed restore's connection to end" },
      );
      await sql.query("set lock_timeout = '200ms'");
      // A restore that went through would have moved it past 41.
      const { rows } = await sql.query("select revision from content_revision");
      expect(rows).toEqual([{ revision: 41 }]);
    },
    180_000,
  );
});
