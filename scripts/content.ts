/**
 * npm run content -- import <dir>   upsert a content folder into the database (idempotent)
 * npm run content -- export <dir>   write the database's content out in the same form
 * npm run content -- generate-large  add a generated 1,000-chapter serial (for benchmarks)
 * npm run content -- generate-readers [count]  add generated readers (10,000 by default; for benchmarks)
 * npm run content -- generate-sessions <count> <file>  sign in that many generated readers, their cookies to <file>
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL); refuses to run while a server holds the data directory.
 */
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "#db/client.server";
import { acquireDataDirLock } from "#db/lock.server";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import {
  generateLargeSerial,
  insertGeneratedReaders,
  insertGeneratedSessions,
} from "~/features/content/generate.server";
import { importContent } from "~/features/content/import.server";
import { getEnv } from "~/lib/env.server";
import { LocalMediaStore } from "~/lib/storage.server";

const usage =
  "usage: npm run content -- import <dir> | export <dir> | generate-large | generate-readers [count] | generate-sessions <count> <file>";

async function main() {
  const [command, dir, file] = process.argv.slice(2);
  const generates =
    command === "generate-large" || command === "generate-readers" || command === "generate-sessions";
  if (command === "generate-sessions" && !file) throw new Error(usage);
  if (!generates && (!dir || (command !== "import" && command !== "export"))) throw new Error(usage);
  const env = getEnv();
  const release = env.DATABASE_URL ? () => {} : acquireDataDirLock(env.dataDir);
  const handle = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: path.join(env.dataDir, "pgdata") });
  const media = new LocalMediaStore(path.join(env.dataDir, "media"));
  try {
    await handle.migrate();
    if (command === "generate-readers") {
      const count = await insertGeneratedReaders(handle.db, dir === undefined ? undefined : Number(dir));
      console.log(`readers      ${count} new`);
    } else if (command === "generate-sessions") {
      const cookies = await insertGeneratedSessions(handle.db, Number(dir));
      fs.writeFileSync(file ?? "", `${cookies.join("\n")}\n`, { mode: 0o600 });
      console.log(`sessions     ${cookies.length} new, cookies in ${file}`);
    } else if (command === "import" || command === "generate-large") {
      const bundle = command === "import" ? await readContentDir(dir ?? "") : generateLargeSerial();
      const report = await importContent(handle.db, bundle, { media });
      for (const [kind, counts] of Object.entries(report)) {
        console.log(
          `${kind.padEnd(12)} ${counts.inserted} new, ${counts.updated} updated, ${counts.unchanged} unchanged`,
        );
      }
    } else {
      const count = await exportContent(handle.db, dir ?? "", media);
      console.log(`wrote ${count} files to ${dir}`);
    }
  } finally {
    await handle.close();
    release();
  }
}

main().catch((error: Error) => {
  console.error(error.name === "ContentError" || error.message === usage ? error.message : error);
  process.exit(1);
});
