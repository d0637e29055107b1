import fs from "node:fs";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { createPostgresDatabase } from "./postgres";

export type Driver = "pglite" | "postgres";

/** The drivers this run can test: PGlite always, PostgreSQL when a server is reachable. */
export const drivers: Driver[] = inject("postgres") ? ["pglite", "postgres"] : ["pglite"];

/**
 * A database with the migrations and the demo content, made the process-wide database for the loaders.
 * PGlite loads the template built in global setup; PostgreSQL gets a new database, dropped by `close`.
 */
export async function openTestDatabase(driver: Driver, { content = true } = {}): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (driver === "pglite") {
    if (content) {
      const template = new Blob([fs.readFileSync(inject("pgliteTemplate"))]);
      handle = await openDatabase({ kind: "pglite", loadDataDir: template });
    } else {
      handle = await openDatabase({ kind: "pglite" });
      await handle.migrate();
    }
  } else {
    const { url, drop } = await createPostgresDatabase();
    const opened = await openDatabase({ kind: "postgres", url });
    await opened.migrate();
    if (content) await importContent(opened.db, await readContentDir("content"));
    handle = {
      ...opened,
      close: async () => {
        await opened.close();
        await drop();
      },
    };
  }
  setDatabase(handle);
  return handle;
}

/**
 * Two app instances on one new PostgreSQL database, as two servers would be: `first` (the process-wide
 * database, with the migrations and, unless told not to, the demo content) and `second`, a pool of its own.
 * `close` ends both and drops the database.
 */
export async function twoPostgresInstances({ content = true } = {}) {
  const { url, drop } = await createPostgresDatabase();
  const first = await openDatabase({ kind: "postgres", url });
  await first.migrate();
  if (content) await importContent(first.db, await readContentDir("content"));
  const second = await openDatabase({ kind: "postgres", url });
  setDatabase(first);
  return {
    first,
    second,
    close: async () => {
      await first.close();
      await second.close();
      await drop();
    },
  };
}
