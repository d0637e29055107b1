import fs from "node:fs";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { createPostgresDatabase } from "./postgres";

export type Driver = "pglite" | "postgres";

/** The drivers this run can test: PGlite always, PostgreSQL when a server is reachable. */
export const drivers: Driver[] = inject("postgres") ? ["pglite", "postgres"] : ["pglite"];

/** The template of global setup to copy: migrated, with the demo content or without. */
const template = (driver: Driver, content: boolean) =>
  driver === "pglite"
    ? inject(content ? "pgliteTemplate" : "pgliteEmptyTemplate")
    : inject(content ? "postgresTemplate" : "postgresEmptyTemplate");

/**
 * A database with the migrations and the demo content (or, `content: false`, the migrations only), made the
 * process-wide database for the loaders: a copy of a template built in global setup. PGlite loads its data
 * directory dump; PostgreSQL gets a new database created from it, dropped by `close`.
 */
export async function openTestDatabase(driver: Driver, { content = true } = {}): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (driver === "pglite") {
    const dump = new Blob([fs.readFileSync(template(driver, content))]);
    handle = await openDatabase({ kind: "pglite", loadDataDir: dump });
  } else {
    const { url, drop } = await createPostgresDatabase(template(driver, content));
    const opened = await openDatabase({ kind: "postgres", url });
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
 * database, with the migrations and, unless told not to, the demo content: a copy of global setup's template)
 * and `second`, a pool of its own. `close` ends both and drops the database.
 */
export async function twoPostgresInstances({ content = true } = {}) {
  const { url, drop } = await createPostgresDatabase(template("postgres", content));
  const first = await openDatabase({ kind: "postgres", url });
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
