import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { waitFor } from "./poll";

export type RunningServer = {
  url: string;
  /** The environment it was started with (beyond the test process's own). */
  env: Record<string, string>;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Every server this test file started, for its output when a test fails (tests/support/each-file.ts). */
export const startedServers: RunningServer[] = [];

/** Starts the built production server (`node server.mjs`) without waiting for it. */
export function spawnServer(env: Record<string, string>): RunningServer {
  const port = env.PORT ?? "0";
  let log = "";
  const child = spawn(process.execPath, ["server.mjs"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}`,
    env,
    child,
    output: () => log,
    exited,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
  startedServers.push(server);
  return server;
}

/** Waits until the server answers /healthz with 200; fails at once if it exits first. */
export async function waitUntilReady(server: RunningServer, timeout = 60_000): Promise<void> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => {
    exitCode = code;
  });
  await waitFor(
    async () => {
      if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${server.output()}`);
      const response = await fetch(`${server.url}/healthz`).catch(() => undefined); // not listening yet
      return response?.ok ? true : undefined;
    },
    { timeout, interval: 100, what: "the server to be ready" },
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${server.output()}`);
  });
}

/**
 * Starts the built server on a free port and waits until it is ready. `env` may be a function of the
 * server's URL, for settings that name it (APP_ORIGIN).
 */
export async function startServer(
  env: Record<string, string> | ((url: string) => Record<string, string>),
): Promise<RunningServer> {
  const port = await freePort();
  const settings = typeof env === "function" ? env(`http://127.0.0.1:${port}`) : env;
  const server = spawnServer({ PORT: String(port), ...settings });
  await waitUntilReady(server).catch(async (error) => {
    await server.stop("SIGKILL");
    throw error;
  });
  return server;
}

/**
 * Starts `count` built servers on one PostgreSQL database, one after the other (the first migrates and loads
 * the content; the others start on the ready database), each with a data directory of its own named
 * `prefix…`. Servers and directories are pushed as they are made, so the caller's cleanup finds them all
 * even when a later one fails to start.
 */
export async function startInstances(
  databaseUrl: string,
  {
    count,
    prefix,
    servers,
    dirs,
  }: { count: number; prefix: string; servers: RunningServer[]; dirs: string[] },
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    const server = spawnServer({ PORT: String(await freePort()), DATA_DIR: dir, DATABASE_URL: databaseUrl });
    servers.push(server);
    await waitUntilReady(server);
  }
}
