// Page weight: HTML bytes (and the part that is not chapter text) and the brotli JavaScript each page loads.
// Usage: npm run build && node bench/page-weight.mjs [/path ...]   (starts the built server on a temp data dir)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomPort } from "./lib.mjs";
import { chapterTextLength, loadedScripts } from "./page-figures.mjs";

const named = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const paths = named.length ? named : ["/chapter/1", "/toc", "/", "/shop"];
const port = randomPort(3400, 500);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-weight-"));
const server = spawn(process.execPath, ["server.mjs"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  },
  stdio: "inherit",
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  const scripts = await loadedScripts(paths.map((page) => base + page));
  const rows = [];
  for (const page of paths) {
    const html = await (await fetch(base + page)).text();
    const text = chapterTextLength(html);
    rows.push({
      page,
      htmlBytes: Buffer.byteLength(html),
      shellBytes: Buffer.byteLength(html) - text,
      scripts: scripts[base + page].scripts.length,
      jsBrotliKB: +(scripts[base + page].brotliBytes / 1024).toFixed(1),
    });
  }
  console.table(rows);
  // With --files, each page's scripts and their brotli bytes, largest first.
  if (process.argv.includes("--files"))
    for (const page of paths) {
      console.log(page);
      for (const script of scripts[base + page].scripts
        .map((file) => ({ file, bytes: fs.statSync(`build/client${file}.br`).size }))
        .sort((a, b) => b.bytes - a.bytes))
        console.log(`  ${String(script.bytes).padStart(7)}  ${script.file}`);
    }
} finally {
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
