import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { logOutput } from "~/lib/logger.server";
import { startedServers } from "./server";
import { removeTempDirs } from "./temp";

/**
 * The app's log lines go to the test's console, which Vitest shows only for a test that fails (`silent:
 * "passed-only"` in vitest.config.ts); lines written in a file's `beforeAll` are shown when the file fails.
 */
logOutput.divert((line) => console.log(line.trimEnd()));

/** A test that logs an unexpected error fails. */
let errors: unknown[][] = [];
beforeEach(({ onTestFailed }) => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
  // The built servers this file started keep their output (tests/support/server.ts): shown when a test fails.
  onTestFailed(() => {
    for (const server of startedServers)
      console.log(`--- output of the server at ${server.url} ---\n${server.output()}`);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length)
    throw new Error(`console.error was called: ${errors.map((args) => args.join(" ")).join("\n")}`);
});

/** Registered first, so it runs after the file's own afterAll hooks (which stop servers using the folders). */
afterAll(removeTempDirs);
