/**
 * What the operator's commands (scripts/db.ts, scripts/admin.ts) share: opening the data directory's PGlite
 * when no server holds it, asking the server that does over its admin socket, and printing a failure
 * meant for the operator as a plain message.
 */
import http from "node:http";
import path from "node:path";
import { type DatabaseHandle, openDatabase, setDatabase } from "#db/client.server";
import { acquireDataDirLock, DataDirLockedError } from "#db/lock.server";
import { adminSocketPath } from "../server/admin-socket";

export class CommandError extends Error {
  override name = "CommandError";
}

/** Runs `work` on the data directory's PGlite, or returns false when a live server holds it. */
export async function withPglite(
  dataDir: string,
  work: (handle: DatabaseHandle) => Promise<void>,
): Promise<boolean> {
  let release: () => void;
  try {
    release = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) return false;
    throw error;
  }
  try {
    const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pgdata") });
    try {
      await handle.migrate();
      await work(handle);
    } finally {
      await handle.close();
    }
  } finally {
    release();
  }
  return true;
}

/** Runs `work` with the configured database as the app's (`db()`): PostgreSQL, or PGlite when free. */
export async function withAppDatabase(
  env: { DATABASE_URL?: string; dataDir: string },
  work: () => Promise<void>,
): Promise<boolean> {
  const run = async (handle: DatabaseHandle) => {
    setDatabase(handle);
    try {
      await work();
    } finally {
      setDatabase(undefined);
    }
  };
  if (!env.DATABASE_URL) return withPglite(env.dataDir, run);
  const handle = await openDatabase({ kind: "postgres", url: env.DATABASE_URL });
  try {
    await handle.migrate();
    await run(handle);
  } finally {
    await handle.close();
  }
  return true;
}

/** Sends a JSON request to the server holding the data directory, over its admin socket; its JSON answer. */
export function askServer(dataDir: string, pathname: string, body: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: adminSocketPath(dataDir),
        method: "POST",
        path: pathname,
        headers: { "Content-Type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.once("end", () => {
          if (response.statusCode !== 200)
            return reject(new CommandError(`The running server refused it (${response.statusCode})`));
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new CommandError("The running server's answer was not JSON"));
          }
        });
      },
    );
    request.once("error", (error) =>
      reject(
        new CommandError(`A server holds ${dataDir} but its admin socket did not answer: ${error.message}`),
      ),
    );
    request.end(JSON.stringify(body));
  });
}

/** Runs a command's main, printing an operator's error (a known kind) as its message alone, and exits 1. */
export function runCommand(main: () => Promise<void>, plainErrors: string[] = []): void {
  main().catch((error: Error) => {
    const plain = ["CommandError", "DataDirLockedError", "ConfigError", ...plainErrors].includes(error.name);
    console.error(plain ? error.message : error);
    process.exit(1);
  });
}
