/**
 * npm run db -- backup <file>    write a backup of the database (ADR 14)
 * npm run db -- restore <file>   replace the database's rows by a backup's
 * Uses the same configuration as the server. On PostgreSQL (DATABASE_URL) a backup is pg_dump's custom
 * format, restored by pg_restore. On PGlite it is the portable JSON-lines backup (db/backup.server.ts),
 * which also restores into PostgreSQL; while a server runs on the data directory, that server writes it.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import pg from "pg";
import { IDLE_LIMIT, LOCK_TRIES, LOCK_WAIT, restoreBackup, writeBackup } from "#db/backup.server";
import { openDatabase } from "#db/client.server";
import { MOVE_EPOCH } from "#db/epoch.server";
import { isDatabaseUnavailable } from "#db/unavailable";
import { getEnv } from "~/lib/env.server";
import { adminSocketPath } from "../server/admin-socket";
import { CommandError, runCommand, withPglite } from "./cli";

const usage = "usage: npm run db -- backup <file> | restore <file>";
const run = promisify(execFile);

/**
 * Writes `<file>.partial` and renames it when complete: a failed backup never leaves a truncated file. A
 * backup holds password and session-token hashes and e-mail addresses, so the file is its owner's alone
 * (0600) from its first byte, whatever the umask; pg_dump writes into the file made here and keeps its mode.
 */
async function writeAtomically(file: string, fill: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${file}.partial`;
  try {
    fs.rmSync(partial, { force: true });
    fs.closeSync(fs.openSync(partial, "wx", 0o600));
    await fill(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

async function writeLines(partial: string, fill: (out: fs.WriteStream) => Promise<void>): Promise<void> {
  const out = fs.createWriteStream(partial, { mode: 0o600 });
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

/**
 * The file's lines, read from the first call on. A readline interface reads from the moment it is made and
 * drops the lines (and the end) nobody iterates yet: made before the restore's first queries, it was
 * iterated after the file was read through, and waited for a line that never came with every table locked.
 */
async function* lines(file: string): AsyncGenerator<string> {
  yield* readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
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
 * A restore's failure from the database as one line for the operator (no stack trace): the restore runs in
 * one transaction, so nothing changed. Anything else (a bug) keeps its stack.
 */
function asCommandError(error: unknown): unknown {
  if (!(error instanceof Error) || ["BackupFormatError", "RestoreBusyError"].includes(error.name))
    return error;
  let current = error as { cause?: unknown; message?: unknown; code?: unknown };
  while (current.cause && typeof current.cause === "object") current = current.cause as typeof current;
  if (typeof current.code !== "string" && !isDatabaseUnavailable(error)) return error;
  const code = typeof current.code === "string" ? ` (${current.code})` : "";
  return new CommandError(`The restore failed and changed nothing: ${String(current.message)}${code}`);
}

/** The public schema's tables, quoted for a statement; empty in an empty database. */
async function publicTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename",
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/**
 * pg_restore's script run by psql in one transaction that first locks every table the site uses, all in one
 * statement, as the portable restore does (db/backup.server.ts): with instances still serving, a request
 * holding a table makes the try give up after LOCK_WAIT and start again, where pg_restore alone dropped
 * the tables one by one and deadlocked with the site's writes. The script reaches psql's end only once
 * pg_restore has finished well: a failed pg_restore ends psql before the commit, so nothing changes.
 */
async function pgRestore(url: string, file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const failure = await pgRestoreOnce(url, file, await publicTables(url));
    if (failure === undefined) return;
    const busy = /lock timeout|deadlock detected/.test(failure);
    if (busy && attempt < LOCK_TRIES) continue;
    throw new CommandError(
      busy
        ? "The running site kept the tables in use: nothing was restored or changed; run the restore again"
        : `pg_restore failed and changed nothing: ${failure}`,
    );
  }
}

/** One try: undefined when restored, else the failure's last line. */
function pgRestoreOnce(url: string, file: string, tables: string[]): Promise<string | undefined> {
  const prelude = [
    `set local lock_timeout = '${LOCK_WAIT}'`,
    `set local idle_in_transaction_session_timeout = '${IDLE_LIMIT}'`,
    ...(tables.length > 0 ? [`lock table ${tables.join(", ")} in access exclusive mode`] : []),
  ].join("; ");
  const psql = spawn(
    "psql",
    [
      "-X",
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      "--single-transaction",
      "-c",
      prelude,
      "-f",
      "-",
      `--dbname=${url}`,
    ],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  const dump = spawn("pg_restore", ["--clean", "--if-exists", "--no-owner", "--file=-", file], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let psqlErrors = "";
  let dumpErrors = "";
  psql.stderr.on("data", (chunk) => {
    psqlErrors += chunk;
  });
  dump.stderr.on("data", (chunk) => {
    dumpErrors += chunk;
  });
  // psql ends first when the lock waits too long: what pg_restore still writes goes nowhere.
  psql.stdin.on("error", () => {});
  dump.stdout.pipe(psql.stdin, { end: false });
  const dumped = new Promise<boolean>((resolve) =>
    dump.once("close", (code) => {
      // Last in the same transaction: a new database epoch, so running servers forget what they kept (ADR 61).
      // pg_dump's script empties the search path: the site's own is put back first.
      if (code === 0) psql.stdin.end(`;\nRESET search_path;\n${MOVE_EPOCH};\n`);
      else psql.kill();
      resolve(code === 0);
    }),
  );
  return new Promise((resolve, reject) => {
    psql.once("error", reject);
    dump.once("error", reject);
    psql.once("close", async (code) => {
      // What pg_restore still writes is read and dropped, or its output would stay paused and never close.
      dump.stdout.unpipe(psql.stdin);
      dump.stdout.resume();
      if (dump.exitCode === null) dump.kill();
      const dumpedWell = await dumped;
      if (code === 0 && dumpedWell) return resolve(undefined);
      // psql failing tells why (a lock, a statement); psql ended by us tells nothing, pg_restore does.
      const errors = (psqlErrors.includes("ERROR") ? psqlErrors : dumpErrors || psqlErrors)
        .trim()
        .split("\n");
      resolve(errors.find((line) => /ERROR|error/.test(line)) ?? errors.at(-1) ?? "no message");
    });
  });
}

async function restore(file: string): Promise<string> {
  if (!fs.existsSync(file)) throw new CommandError(`No file ${file}`);
  const env = getEnv();
  const pgDump = await isPgDump(file);
  if (env.DATABASE_URL) {
    if (pgDump) {
      await pgRestore(env.DATABASE_URL, file);
      return `restored ${file} with pg_restore`;
    }
    const handle = await openDatabase({ kind: "postgres", url: env.DATABASE_URL });
    try {
      await handle.migrate();
      return `restored ${await restoreBackup(handle, lines(file))} rows from ${file}`;
    } catch (error) {
      throw asCommandError(error);
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

runCommand(main, ["BackupFormatError", "RestoreBusyError"]);
