import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
      "bench/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/{unit,integration,server}/**/*.test.ts",
    ],
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/each-file.ts"],
    // A file spends much of its time waiting on PostgreSQL, a built server or a timer of the app's, so one file
    // more than the cores runs at once (Vitest's default is one fewer: a single file at a time on two cores).
    maxWorkers: os.availableParallelism() + 1,
    // The console (and the app's log, tests/support/each-file.ts) of a test that passes is not shown.
    silent: "passed-only",
    // Ceilings for a hung test or hook, not figures under test: files run in parallel on a shared 2-core machine,
    // where a PGlite initdb that takes 10 s alone took 32 s beside other files.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
