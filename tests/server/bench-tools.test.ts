import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `node bench/run.mjs` with the given PATH and TMPDIR (where the bench makes its data directories), its results
 * written to `results` (not the checkout's bench/results).
 */
function bench(env: { PATH: string; TMPDIR: string }, results: string, ...options: string[]) {
  return spawnSync(
    process.execPath,
    ["bench/run.mjs", "--skip-lighthouse", "--duration=1", `--results=${results}`, ...options],
    { env: { ...process.env, ...env }, encoding: "utf8", timeout: 240_000 },
  );
}

/** Processes whose environment names the directory: the bench's servers carry it in DATA_DIR. */
function processesUsing(directory: string) {
  return fs.readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, "latin1").includes(directory);
    } catch {
      return false;
    }
  });
}

describe("the bench's own checks (issue 22)", () => {
  it("names a missing wrk, with the command that installs it, before starting anything", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-test-"));
    // A PATH with nothing on it: the bench starts its servers with its own node (process.execPath).
    const empty = path.join(tmp, "bin");
    fs.mkdirSync(empty);
    const work = path.join(tmp, "work");
    fs.mkdirSync(work);
    const result = bench({ PATH: empty, TMPDIR: work }, path.join(tmp, "latest.json"));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("wrk, the load generator: apt-get install -y wrk");
    expect(fs.readdirSync(work)).toEqual([]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("records a failing measurement as a miss and goes on, leaving no server running and no data directory behind", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-test-"));
    // A wrk that fails at once: the bench has started its servers by its first run.
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "wrk"), '#!/bin/sh\necho "wrk: failed on purpose" >&2\nexit 3\n', {
      mode: 0o755,
    });
    const work = path.join(tmp, "work");
    fs.mkdirSync(work);
    const file = path.join(tmp, "latest.json");
    // Figures of an earlier run of another part stay in the results.
    fs.writeFileSync(
      file,
      JSON.stringify({ runs: { tocBr: { rps: 1 } }, parts: { pages: { date: "earlier" } } }),
    );
    const result = bench(
      { PATH: `${bin}${path.delimiter}${process.env.PATH}`, TMPDIR: work },
      file,
      "--only=chapters,releaseMinute",
    );
    // Both parts ran, each failed at its first load run, and the run ended normally.
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("part chapters: NOT MEASURED");
    expect(result.stderr).toContain("part releaseMinute: NOT MEASURED");
    const results = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(results.misses.chapters).toContain("wrk: failed on purpose");
    expect(results.misses.releaseMinute).toContain("wrk: failed on purpose");
    expect(results.runs.tocBr).toEqual({ rps: 1 });
    expect(results.parts.pages.date).toBe("earlier");
    // bench:check names the budgets the failure left without a figure, and the error.
    const check = spawnSync(process.execPath, ["bench/check.mjs", `--results=${file}`], { encoding: "utf8" });
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(
      /MISS chapterVisitorRatio: not measured \(part chapters failed: .*wrk: failed on purpose/,
    );
    expect(check.stdout).toContain(
      "MISS cacheMissAfterEdit: not measured: run npm run bench -- --only=cacheMiss",
    );
    expect(processesUsing(work)).toEqual([]);
    // The bench's data directories and the baseline's page (the servers' logs stay, to read after a failure).
    expect(fs.readdirSync(work).filter((name) => name.startsWith("cc-") && !name.endsWith(".log"))).toEqual(
      [],
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 300_000);
});
