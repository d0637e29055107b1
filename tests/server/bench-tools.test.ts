import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** `node bench/run.mjs` with the given PATH and TMPDIR (where the bench makes its data directories). */
function bench(env: { PATH: string; TMPDIR: string }) {
  return spawnSync(process.execPath, ["bench/run.mjs", "--skip-lighthouse", "--duration=1"], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 240_000,
  });
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
    const result = bench({ PATH: empty, TMPDIR: work });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("wrk, the load generator: apt-get install -y wrk");
    expect(fs.readdirSync(work)).toEqual([]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("leaves no server running and no data directory behind when a measurement fails", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-test-"));
    // A wrk that fails at once: the bench has started its servers by its first run.
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "wrk"), '#!/bin/sh\necho "wrk: failed on purpose" >&2\nexit 3\n', {
      mode: 0o755,
    });
    const work = path.join(tmp, "work");
    fs.mkdirSync(work);
    const result = bench({ PATH: `${bin}${path.delimiter}${process.env.PATH}`, TMPDIR: work });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("wrk: failed on purpose");
    expect(processesUsing(work)).toEqual([]);
    // The bench's data directories and the baseline's page (its server log stays, to read after a failure).
    expect(fs.readdirSync(work).filter((name) => name.startsWith("cc-") && !name.endsWith(".log"))).toEqual(
      [],
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 300_000);
});
