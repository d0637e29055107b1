import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { z } from "zod";
import { writeBackup } from "#db/backup.server";
import type { DatabaseHandle } from "#db/client.server";
import { setAuthor } from "~/features/admin/roles.server";
import { clearFactorsByEmail } from "~/features/two-factor/factors.server";
import { logger } from "~/lib/logger.server";
import { isUnstorableText } from "~/lib/unstorable-text";

/** Where a server on PGlite listens for `npm run db -- backup` (scripts/db.ts) while it holds the data directory. */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

/**
 * PGlite allows one process on its data directory, so a backup of a running site is written by the server
 * itself (ADR 14). It answers on a UNIX socket in DATA_DIR, readable by the directory's owner only: nothing
 * on the network, and whoever can reach it could copy the database files anyway. Two requests: POST /backup,
 * answered with the backup's JSON lines, and POST /role (`npm run admin`, scripts/admin.ts).
 */
export async function startAdminSocket(
  dataDir: string,
  handle: DatabaseHandle,
): Promise<() => Promise<void>> {
  const socketPath = adminSocketPath(dataDir);
  // The data directory is locked by this process: a socket file left there is a dead server's.
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === "/role") {
      answerRole(req, res);
      return;
    }
    if (req.method === "POST" && req.url === "/second-factor") {
      answerSecondFactor(req, res);
      return;
    }
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

// The socket's JSON is read like any request's: text the database cannot store is refused (400).
const email = z
  .string()
  .max(254)
  .refine((value) => !isUnstorableText(value));
const roleRequest = z.object({ email, grant: z.boolean() });
const secondFactorRequest = z.object({ email });

/** A small JSON body (4 KB at most), parsed with `schema`; a malformed one is answered 400. */
function readJson<T>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  schema: z.ZodType<T>,
  then: (value: T) => void,
): void {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
    if (body.length > 4096) req.destroy();
  });
  req.once("end", () => {
    let parsed: T;
    try {
      parsed = schema.parse(JSON.parse(body));
    } catch {
      res.writeHead(400).end();
      return;
    }
    then(parsed);
  });
}

/** `npm run admin -- reset-second-factor` while this server holds the data directory (ADR 65). */
function answerSecondFactor(req: http.IncomingMessage, res: http.ServerResponse): void {
  readJson(req, res, secondFactorRequest, ({ email }) => {
    clearFactorsByEmail(email)
      .then((result) =>
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result)),
      )
      .catch((error: unknown) => {
        logger.error({ err: error }, "clearing second factors failed");
        res.writeHead(500).end();
      });
  });
}

/** `npm run admin -- grant-author|revoke-author` while this server holds the data directory. */
function answerRole(req: http.IncomingMessage, res: http.ServerResponse): void {
  readJson(req, res, roleRequest, ({ email, grant }) => {
    setAuthor(email, grant, { via: "cli" })
      .then((outcome) => {
        logger.info(
          { event: "author.role", outcome, via: "cli" },
          "author role changed from the command line",
        );
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ outcome }));
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "role change failed");
        res.writeHead(500).end();
      });
  });
}
