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

describe("the bench's own checks", () => {
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
    // The release minute's part: a server of its own (the 1,010-chapter site takes minutes to make).
    const result = bench(
      { PATH: `${bin}${path.delimiter}${process.env.PATH}`, TMPDIR: work },
      file,
      "--only=releaseMinute",
    );
    // The part failed at its first load run, and the run went on to its end: results written, summary printed.
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("part releaseMinute: NOT MEASURED");
    expect(result.stderr).toContain("1 part(s) not measured");
    const results = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(results.misses.releaseMinute).toContain("wrk: failed on purpose");
    expect(results.runs.tocBr).toEqual({ rps: 1 });
    expect(results.parts.pages.date).toBe("earlier");
    // bench:check names the budgets left without a figure: the failed part's, with its error, and the others'.
    const check = spawnSync(process.execPath, ["bench/check.mjs", `--results=${file}`], { encoding: "utf8" });
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(
      /MISS releaseMinuteP99: not measured \(part releaseMinute failed: .*wrk: failed on purpose/,
    );
    expect(check.stdout).toContain(
      "MISS chapterVisitorRatio: not measured: run npm run bench -- --only=chapters",
    );
    expect(processesUsing(work)).toEqual([]);
    // The bench's data directories and the baseline's page (the servers' logs stay, to read after a failure).
    expect(fs.readdirSync(work).filter((name) => name.startsWith("cc-") && !name.endsWith(".log"))).toEqual(
      [],
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 300_000);
});
