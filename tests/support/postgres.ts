import crypto from "node:crypto";
import pg from "pg";

/** The server the PostgreSQL tests create their databases on (trust auth on CI and the dev machines). */
export function postgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

/** `TEST_POSTGRES=off` turns the PostgreSQL tests off, as if no server were there. */
export function postgresTurnedOff(): boolean {
  return process.env.TEST_POSTGRES === "off";
}

export async function postgresReachable(): Promise<boolean> {
  if (postgresTurnedOff()) return false;
  const client = new pg.Client({ connectionString: postgresAdminUrl(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates a database for one test file, empty or a copy of `template` (a database of the run's global setup,
 * tests/support/global-setup.ts); the returned function drops it.
 */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl() });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
