import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
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
  return {
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
