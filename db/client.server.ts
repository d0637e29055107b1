import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import tarFs from "tar-fs";
import { pgliteStatements } from "./pglite-statements.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** The PGlite instance, for dumps; undefined on PostgreSQL. */
  pglite?: PGlite;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Runs a statement that is parsed and planned once per connection, for the hottest reads (planning a
   * three-table join costs more than running it: about 0.4 ms of 0.7 on PGlite). `text` uses $1, $2…;
   * rows come as arrays in the statement's column order.
   */
  preparedRows(name: string, text: string, params: string[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve("db/migrations");

/**
 * An initialised, migrated, empty PGlite data directory, made by `npm run build` (scripts/pglite-template.ts,
 * ADR 52): a fresh data directory starts from it instead of running PostgreSQL's initdb, which holds about
 * 800 MB while it runs (loading the template: about 310 MB). Named by the PGlite version that made it.
 */
export function pgliteTemplatePath(version = installedPgliteVersion()): string {
  return path.resolve("build", `pglite-template-${version}.tar.gz`);
}

export function installedPgliteVersion(): string {
  const manifest = path.resolve("node_modules/@electric-sql/pglite/package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/**
 * Starts a data directory that does not exist yet (or is empty) from the template, unpacked on Node's side:
 * given to PGlite (`loadDataDir`), the archive and its files pass through its WebAssembly memory, which never
 * shrinks, and the process held 460 MB for good; unpacked here, it opens at 310 MB like any data directory
 * (ADR 52). Unpacked beside it and renamed, so a crash halfway leaves no half database. False when there is
 * nothing to do this way (a database is there, no template, or a folder of other files).
 */
async function unpackTemplate(dataDir: string, template: string): Promise<boolean> {
  if (!fs.existsSync(template)) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return false;
  const partial = `${dataDir}.unpacking-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  // A tar, gzipped (the build's) or not (the tests' own): as PGlite's dumps come.
  const header = Buffer.alloc(2);
  const file = fs.openSync(template, "r");
  fs.readSync(file, header, 0, 2, 0);
  fs.closeSync(file);
  const gzipped = header[0] === 0x1f && header[1] === 0x8b;
  await (gzipped
    ? pipeline(fs.createReadStream(template), zlib.createGunzip(), tarFs.extract(partial))
    : pipeline(fs.createReadStream(template), tarFs.extract(partial)));
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.renameSync(partial, dataDir);
  return true;
}

/** The template for a folder of other files that holds no database yet, through PGlite (else initdb runs). */
function templateFor(dataDir: string, template: string): Blob | undefined {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return undefined;
  return fs.existsSync(template) ? new Blob([fs.readFileSync(template)]) : undefined;
}

export type DatabaseOptions =
  | { kind: "postgres"; url: string; onError?: (error: Error) => void }
  | {
      kind: "pglite";
      dataDir?: string;
      loadDataDir?: Blob;
      /** Where a fresh `dataDir` starts from (default: the build's template, when there is one). */
      template?: string;
    };

/** Opens the embedded PGlite store (in `dataDir`, or in memory) or a PostgreSQL pool. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, connectionTimeoutMillis: 5000 });
    // A connection lost (a database restart, pg_terminate_backend) is an `error` event on its client, and an
    // `error` event nobody listens to ends the process. The pool listens on idle clients only; a client
    // checked out for a transaction has no listener of its own. So every client gets one for its whole
    // life: the query in flight fails (a 503, ADR 14), the pool drops the broken client when it comes back
    // (it is no longer queryable) and opens a new connection for the next query.
    pool.on("connect", (client) => client.on("error", (error) => options.onError?.(error)));
    pool.on("error", () => {
      // Reported by the client's own listener above.
    });
    const db = drizzleNodePg(pool, { schema });
    return {
      db: db as unknown as Database,
      kind: "postgres",
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      ping: async () => void (await pool.query("select 1")),
      // node-postgres prepares a named statement once on each pooled connection.
      preparedRows: async (name, text, params) =>
        (await pool.query<unknown[]>({ name, text, values: params, rowMode: "array" })).rows,
      close: () => pool.end(),
    };
  }
  const template = options.template ?? pgliteTemplatePath();
  const unpacked =
    options.dataDir !== undefined &&
    !options.loadDataDir &&
    (await unpackTemplate(options.dataDir, template));
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir:
      options.loadDataDir ??
      (options.dataDir && !unpacked ? templateFor(options.dataDir, template) : undefined),
    // PostgreSQL's default 128 MB of shared buffers is allocated and touched inside the WebAssembly memory
    // at start (RSS 290 MB before the first page). The embedded store serves one site: 32 MB holds its hot
    // pages, and the rest comes from the operating system's file cache.
    postgresqlconf: ["shared_buffers = 32MB"],
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    pglite: client,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: async () => void (await db.execute(sql`select 1`)),
    preparedRows: pgliteStatements(client),
    close: () => client.close(),
  };
}

const holder = globalThis as { __database?: DatabaseHandle };

/** The process-wide database, set once at start (see server/app.ts). */
export function setDatabase(handle: DatabaseHandle | undefined) {
  holder.__database = handle;
}

export function getDatabase(): DatabaseHandle {
  if (!holder.__database) throw new Error("The database is not open yet");
  return holder.__database;
}

export function db(): Database {
  return getDatabase().db;
}
