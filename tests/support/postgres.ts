import crypto from "node:crypto";
import pg from "pg";

/** The server the PostgreSQL tests create their databases on (trust auth on CI and the dev machines). */
export function postgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

export async function postgresReachable(): Promise<boolean> {
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

/** Creates an empty database for one test file; the returned function drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
