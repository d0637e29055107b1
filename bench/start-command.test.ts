import { describe, expect, it } from "vitest";
import { startCommand } from "./start-command.mjs";

describe("startCommand", () => {
  it("reads package.json's start script: its environment and node's flags", () => {
    const start = startCommand();
    expect(start.env).toMatchObject({ NODE_ENV: "production", MALLOC_ARENA_MAX: "2" });
    expect(start.flags).toContain("--heap-growing-percent=50");
  });

  it("splits a script into assignments and flags", () => {
    expect(startCommand("A=1 B_C=x=y node --one --two=2 server.mjs")).toEqual({
      env: { A: "1", B_C: "x=y" },
      flags: ["--one", "--two=2"],
    });
    expect(startCommand("node server.mjs")).toEqual({ env: {}, flags: [] });
  });

  it("refuses a script it cannot follow, rather than start the server otherwise", () => {
    for (const script of [
      "tsx server.ts",
      "node server.mjs --port 3000",
      "A=1 node -r x server.mjs",
      "cd x && node server.mjs",
      "node build/server/index.js",
    ])
      expect(() => startCommand(script), script).toThrowError(/start script/);
  });
});
