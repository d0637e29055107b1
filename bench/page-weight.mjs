// Page weight: HTML bytes and compressed JavaScript (gzip -9 and brotli q11) that each page loads.
// Usage: npm run build && node bench/page-weight.mjs [/path ...]   (starts the built server on a temp data dir)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/chapter/1", "/toc", "/", "/shop"];
const port = 3400 + Math.floor(Math.random() * 500);
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
  const rows = [];
  for (const page of paths) {
    const html = await (await fetch(base + page)).text();
    const scripts = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];
    let gzip = 0;
    let brotli = 0;
    for (const script of scripts) {
      const bytes = fs.readFileSync(path.join("build/client", script));
      gzip += zlib.gzipSync(bytes, { level: 9 }).length;
      brotli += zlib.brotliCompressSync(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length;
    }
    rows.push({
      page,
      htmlBytes: Buffer.byteLength(html),
      scripts: scripts.length,
      jsGzipKB: +(gzip / 1024).toFixed(1),
      jsBrotliKB: +(brotli / 1024).toFixed(1),
    });
  }
  console.table(rows);
} finally {
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
