import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#db/client.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { LocalMediaStore } from "~/lib/storage.server";
import { postgresAdminUrl, postgresReachable } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    mediaDir: string;
    postgres: boolean;
  }
}

/**
 * A fresh PGlite takes seconds to initialise, so one template with the migrations and the demo content is
 * built once per run and every test file loads a copy of it.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-test-"));
  const handle = await openDatabase({ kind: "pglite" });
  await handle.migrate();
  const media = new LocalMediaStore(path.join(dir, "media"));
  await importContent(handle.db, await readContentDir("content"), { media });
  const dump = await handle.pglite?.dumpDataDir("none");
  if (!dump) throw new Error("PGlite dump failed");
  const template = path.join(dir, "template.tar");
  fs.writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteTemplate", template);
  project.provide("mediaDir", media.root);
  project.provide("postgres", await postgresReachable());
  if (!(await postgresReachable()))
    console.warn(`PostgreSQL not reachable at ${postgresAdminUrl()}: its tests are skipped`);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
