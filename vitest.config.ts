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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
