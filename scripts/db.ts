/**
 * npm run db -- backup <file>    write a backup of the database (ADR 14)
 * npm run db -- restore <file>   replace the database's rows by a backup's
 * Uses the same configuration as the server. On PostgreSQL (DATABASE_URL) a backup is pg_dump's custom
 * format, restored by pg_restore. On PGlite it is the portable JSON-lines backup (db/backup.server.ts),
 * which also restores into PostgreSQL; while a server runs on the data directory, that server writes it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import { restoreBackup, writeBackup } from "#db/backup.server";
import { openDatabase } from "#db/client.server";
import { moveDatabaseEpoch } from "#db/epoch.server";
import { getEnv } from "~/lib/env.server";
import { adminSocketPath } from "../server/admin-socket";
import { CommandError, runCommand, withPglite } from "./cli";

const usage = "usage: npm run db -- backup <file> | restore <file>";
const run = promisify(execFile);

/** Writes `<file>.partial` and renames it when complete: a failed backup never leaves a truncated file. */
async function writeAtomically(file: string, fill: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await fill(partial);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

async function writeLines(partial: string, fill: (out: fs.WriteStream) => Promise<void>): Promise<void> {
  const out = fs.createWriteStream(partial);
  try {
    await fill(out);
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

function writeLine(out: fs.WriteStream) {
  return async (line: string) => {
    if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
}

/** Asks the server holding the data directory for the backup, over its admin socket. */
function backupFromServer(dataDir: string, out: fs.WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: adminSocketPath(dataDir), method: "POST", path: "/backup" },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new CommandError(`The running server refused the backup (${response.statusCode})`));
          response.resume();
          return;
        }
        response.pipe(out, { end: false });
        response.once("end", () =>
          response.complete ? resolve() : reject(new CommandError("The backup was cut short")),
        );
        response.once("error", reject);
      },
    );
    request.once("error", (error) =>
      reject(
        new CommandError(`A server holds ${dataDir} but its admin socket did not answer: ${error.message}`),
      ),
    );
    request.end();
  });
}

async function isPgDump(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    return bytesRead === 5 && buffer.toString("latin1") === "PGDMP";
  } finally {
    await handle.close();
  }
}

function lines(file: string): AsyncIterable<string> {
  return readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
}

async function backup(file: string): Promise<string> {
  const env = getEnv();
  const url = env.DATABASE_URL;
  if (url) {
    await writeAtomically(file, async (partial) => {
      await run("pg_dump", ["--format=custom", `--file=${partial}`, `--dbname=${url}`]);
    });
    return `wrote ${file} (pg_dump custom format)`;
  }
  let rows: number | undefined;
  await writeAtomically(file, (partial) =>
    writeLines(partial, async (out) => {
      const opened = await withPglite(env.dataDir, async (handle) => {
        rows = await writeBackup(handle, writeLine(out));
      });
      if (!opened) await backupFromServer(env.dataDir, out);
    }),
  );
  return rows === undefined ? `wrote ${file} (by the running server)` : `wrote ${file} (${rows} rows)`;
}

/**
 * Draws a new database epoch once pg_restore has committed, so running servers forget what they kept from
 * the data before (ADR 61): pg_restore cannot run it in its own transaction. Recreating the tables already
 * moved the epoch as the servers read it; this makes it a new value whatever the backup held.
 */
async function moveEpochAfterPgRestore(url: string): Promise<void> {
  const handle = await openDatabase({ kind: "postgres", url });
  try {
    await moveDatabaseEpoch(handle.db);
  } finally {
    await handle.close();
  }
}

async function restore(file: string): Promise<string> {
  if (!fs.existsSync(file)) throw new CommandError(`No file ${file}`);
  const env = getEnv();
  const pgDump = await isPgDump(file);
  if (env.DATABASE_URL) {
    if (pgDump) {
      await run("pg_restore", [
        "--clean",
        "--if-exists",
        "--no-owner",
        "--single-transaction",
        "--exit-on-error",
        `--dbname=${env.DATABASE_URL}`,
        file,
      ]);
      await moveEpochAfterPgRestore(env.DATABASE_URL);
      return `restored ${file} with pg_restore`;
    }
    const handle = await openDatabase({ kind: "postgres", url: env.DATABASE_URL });
    try {
      await handle.migrate();
      return `restored ${await restoreBackup(handle, lines(file))} rows from ${file}`;
    } finally {
      await handle.close();
    }
  }
  if (pgDump)
    throw new CommandError(
      "A pg_dump backup restores into PostgreSQL: set DATABASE_URL to the target database",
    );
  let rows = 0;
  const restored = await withPglite(env.dataDir, async (handle) => {
    rows = await restoreBackup(handle, lines(file));
  });
  if (!restored) throw new CommandError(`A server is running on ${env.dataDir}: stop it before restoring`);
  return `restored ${rows} rows from ${file}`;
}

async function main() {
  const [command, file] = process.argv.slice(2);
  if (!file || (command !== "backup" && command !== "restore")) throw new CommandError(usage);
  console.log(command === "backup" ? await backup(path.resolve(file)) : await restore(path.resolve(file)));
}

runCommand(main, ["BackupFormatError"]);
