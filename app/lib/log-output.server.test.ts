import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor } from "../../tests/support/poll";
import { LogOutput } from "./log-output.server";
import { logDestination } from "./logger.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-log-output-"));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

function output() {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${Math.random()}.log`);
  const fd = fs.openSync(file, "w");
  return { out: new LogOutput(fd), read: () => fs.readFileSync(file, "utf8") };
}

/** Waits until `done` holds (polled: the file is written by the thread pool, with no event to the test). */
const until = (done: () => boolean) => waitFor(() => (done() ? true : undefined), { interval: 5 });

/** Counts the output's asynchronous writes as they start and end, calling through to the real ones. */
function watchWrites() {
  const writes = { started: 0, ended: 0 };
  const real = fs.write;
  vi.spyOn(fs, "write").mockImplementation(((...args: unknown[]) => {
    writes.started++;
    const callback = args.pop() as (...results: unknown[]) => void;
    return (real as (...all: unknown[]) => void)(...args, (...results: unknown[]) => {
      writes.ended++;
      callback(...results);
    });
  }) as typeof fs.write);
  return writes;
}

describe("the log's output (ADR 69)", () => {
  it("hands lines to a sink once diverted, after writing what was buffered, and none to the file", () => {
    const { out, read } = output();
    out.write("before\n");
    const seen: string[] = [];
    out.divert((line) => seen.push(line));
    expect(read()).toBe("before\n");
    out.write("after 1\n");
    out.write("after 2\n");
    out.flushSync();
    expect(seen).toEqual(["after 1\n", "after 2\n"]);
    expect(read()).toBe("before\n");
  });

  it("keeps a few lines until flushed, then writes them in order", async () => {
    const writes = watchWrites();
    vi.useFakeTimers();
    const { out, read } = output();
    for (let i = 0; i < 10; i++) out.write(`line ${i}\n`);
    // However long nobody flushes, no write starts.
    await vi.runAllTimersAsync();
    expect(writes.started).toBe(0);
    expect(read()).toBe("");
    vi.useRealTimers();
    out.flush();
    await until(() => read().length > 0);
    expect(read()).toBe(Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join(""));
  });

  it("writes by itself once about 16 KB are buffered, in order, nothing twice", async () => {
    const writes = watchWrites();
    const { out, read } = output();
    const lines = Array.from({ length: 2000 }, (_, i) => `{"n":${i},"pad":"${"x".repeat(40)}"}\n`);
    for (const line of lines) out.write(line);
    await until(() => read().length >= 16 * 1024 * 5);
    expect(read().length).toBeGreaterThanOrEqual(16 * 1024);
    out.flushSync();
    // The chunk in flight when the rest was written at once ends; none starts after it.
    await until(() => writes.ended === writes.started);
    expect(read()).toBe(lines.join(""));
  });

  it("writes what is buffered when the process ends with an uncaught exception", () => {
    const script = path.join(dir, "crash.ts");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      script,
      `import { logger } from "${path.resolve("app/lib/logger.server.ts")}";\n` +
        `for (let i = 0; i < 50; i++) logger.info({ n: i }, "before the crash");\n` +
        `setImmediate(() => { throw new Error("boom"); });\n`,
    );
    const run = spawnSync(process.execPath, ["--import", "tsx", script], {
      encoding: "utf8",
      env: { ...process.env, LOG_LEVEL: "info" },
    });
    expect(run.status).toBe(1);
    const lines = run.stdout.split("\n").filter(Boolean);
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines.at(-1) ?? "{}")).toMatchObject({ n: 49, msg: "before the crash" });
  });

  it("writes a warning or an error at once, with the routine lines before it, and keeps routine lines for their chunk", async () => {
    const { out, read } = output();
    const destination = logDestination(out);
    destination.write('{"level":"info","msg":"routine"}\n');
    destination.write('{"level":"debug","msg":"detail"}\n');
    expect(read()).toBe("");
    destination.write('{"level":"warn","msg":"alarm"}\n');
    await until(() => read().includes("alarm"));
    expect(read()).toBe(
      '{"level":"info","msg":"routine"}\n{"level":"debug","msg":"detail"}\n{"level":"warn","msg":"alarm"}\n',
    );
    destination.write('{"level":"error","msg":"worse"}\n');
    await until(() => read().includes("worse"));
    expect(read()).toContain("worse");
  });

  it("writes every line at once and in order at a developer's level", () => {
    const { out, read } = output();
    const destination = logDestination(out, { watched: true });
    destination.write('{"level":"debug","msg":"render"}\n');
    expect(read()).toBe('{"level":"debug","msg":"render"}\n');
    destination.write('{"level":"info","msg":"access"}\n');
    expect(read()).toBe('{"level":"debug","msg":"render"}\n{"level":"info","msg":"access"}\n');
  });
});
