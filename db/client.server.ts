import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** The PGlite instance, for dumps; undefined on PostgreSQL. */
  pglite?: PGlite;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve("db/migrations");

export type DatabaseOptions =
  | { kind: "postgres"; url: string; onError?: (error: Error) => void }
  | { kind: "pglite"; dataDir?: string; loadDataDir?: Blob };

/** Opens the embedded PGlite store (in `dataDir`, or in memory) or a PostgreSQL pool. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, connectionTimeoutMillis: 5000 });
    // An idle client losing its connection (a database restart) must not crash the process.
    pool.on("error", (error) => options.onError?.(error));
    const db = drizzleNodePg(pool, { schema });
    return {
      db: db as unknown as Database,
      kind: "postgres",
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      ping: async () => void (await pool.query("select 1")),
      close: () => pool.end(),
    };
  }
  const client = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    pglite: client,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: async () => void (await db.execute(sql`select 1`)),
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
