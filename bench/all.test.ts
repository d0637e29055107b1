import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { benchSteps } from "./all.mjs";

describe("npm run bench", () => {
  it("is one program, so the options npm appends reach the parts' run, not the report", () => {
    const scripts = JSON.parse(fs.readFileSync("package.json", "utf8")).scripts as Record<string, string>;
    expect(scripts.bench).toBe("node bench/all.mjs");
    const steps = benchSteps(["--only=renders", "--duration=5"]);
    expect(steps.map(([, args]) => args[0])).toEqual(["bench/tools.mjs", "run", "bench/run.mjs", "run"]);
    expect(steps[2]?.[1]).toEqual(["bench/run.mjs", "--only=renders", "--duration=5"]);
    expect(steps[3]?.[1]).toEqual(["run", "bench:report"]);
  });
});
