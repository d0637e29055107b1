import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { writeBackup } from "#db/backup.server";
import type { DatabaseHandle } from "#db/client.server";
import { logger } from "~/lib/logger.server";

/** Where a server on PGlite listens for `npm run db -- backup` (scripts/db.ts) while it holds the data directory. */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

/**
 * PGlite allows one process on its data directory, so a backup of a running site is written by the server
 * itself (ADR 14). It answers on a UNIX socket in DATA_DIR, readable by the directory's owner only: nothing
 * on the network, and whoever can reach it could copy the database files anyway. One request, POST /backup,
 * answered with the backup's JSON lines.
 */
export async function startAdminSocket(
  dataDir: string,
  handle: DatabaseHandle,
): Promise<() => Promise<void>> {
  const socketPath = adminSocketPath(dataDir);
  // The data directory is locked by this process: a socket file left there is a dead server's.
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/backup") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    writeBackup(handle, async (line) => {
      if (res.destroyed) throw new Error("The backup's reader went away");
      if (!res.write(`${line}\n`))
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
    })
      .then((rows) => {
        logger.info({ rows }, "backup written");
        res.end();
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "backup failed");
        res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
