// The last step of `npm run build` (ADR 52): an initialised PGlite data directory with every migration
// applied and no rows of the site's own, written as build/pglite-template-<PGlite version>.tar.gz. A fresh
// data directory (`npm start`'s first start, `npm run content -- import`, the bench) loads it instead of
// running initdb, which holds about 800 MB of memory while it runs; loading it holds about 310 MB.
import fs from "node:fs";
import { openDatabase, pgliteTemplatePath } from "#db/client.server";

const handle = await openDatabase({ kind: "pglite" });
await handle.migrate();
const dump = await handle.pglite?.dumpDataDir("gzip");
if (!dump) throw new Error("PGlite gave no dump");
const file = pgliteTemplatePath();
fs.writeFileSync(`${file}.partial`, Buffer.from(await dump.arrayBuffer()));
fs.renameSync(`${file}.partial`, file);
await handle.close();
console.log(`PGlite template: ${file} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`);
