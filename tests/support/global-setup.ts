import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#db/client.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { LocalMediaStore } from "~/lib/storage.server";
import { createPostgresDatabase, postgresAdminUrl, postgresReachable, postgresTurnedOff } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgliteEmptyTemplate: string;
    mediaDir: string;
    postgres: boolean;
    postgresTemplate: string;
    postgresEmptyTemplate: string;
  }
}

/**
 * A fresh PGlite takes seconds to initialise, and migrating and loading the demo content costs a second or two
 * more on either driver, so it is done once per run: one template with the migrations and the demo content and
 * one with the migrations only, for PGlite (data directory dumps every test file loads a copy of) and for
 * PostgreSQL (databases every test file's database is created from, dropped at the end).
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-test-"));
  const handle = await openDatabase({ kind: "pglite" });
  await handle.migrate();
  project.provide("pgliteEmptyTemplate", await dumpPglite(handle, path.join(dir, "empty.tar")));
  const media = new LocalMediaStore(path.join(dir, "media"));
  await importContent(handle.db, await readContentDir("content"), { media });
  project.provide("pgliteTemplate", await dumpPglite(handle, path.join(dir, "template.tar")));
  await handle.close();
  project.provide("mediaDir", media.root);

  const postgres = await postgresReachable();
  project.provide("postgres", postgres);
  if (!postgres) {
    if (!postgresTurnedOff())
      console.warn(`PostgreSQL not reachable at ${postgresAdminUrl()}: its tests are skipped`);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const empty = await postgresTemplate({ content: false });
  const withContent = await postgresTemplate({ content: true });
  project.provide("postgresEmptyTemplate", empty.name);
  project.provide("postgresTemplate", withContent.name);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await empty.drop();
    await withContent.drop();
  };
}

async function dumpPglite(handle: Awaited<ReturnType<typeof openDatabase>>, file: string): Promise<string> {
  const dump = await handle.pglite?.dumpDataDir("none");
  if (!dump) throw new Error("PGlite dump failed");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

/** A migrated PostgreSQL database, with the demo content or without; closed, so it can be copied. */
async function postgresTemplate({ content }: { content: boolean }) {
  const database = await createPostgresDatabase();
  const handle = await openDatabase({ kind: "postgres", url: database.url });
  await handle.migrate();
  if (content) await importContent(handle.db, await readContentDir("content"));
  await handle.close();
  return { name: new URL(database.url).pathname.slice(1), drop: database.drop };
}
