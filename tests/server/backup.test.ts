import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "#db/client.server";
import { Client, registerReader } from "../support/http";
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

function dbCommand(args: string[], env: Record<string, string>) {
  return run(process.execPath, ["--import", "tsx", "scripts/db.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
  });
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
  });

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
      const handle = await openDatabase({ kind: "postgres", url: database.url });
      cleanups.push(() => handle.close());
      const expected = await snapshot(handle.db);
      expect(expected.users).toHaveLength(1);
      await handle.db.execute("truncate users, chapters, volumes restart identity cascade");
      expect((await snapshot(handle.db)).users).toEqual([]);

      await dbCommand(["restore", file], { DATABASE_URL: database.url });
      expect(await snapshot(handle.db)).toEqual(expected);
      // The running server serves the restored database.
      expect((await fetch(`${server.url}/chapter/1`)).status).toBe(200);
    },
  );
});
