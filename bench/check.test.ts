import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// bench/check.mjs as `npm run bench:check` runs it, on results and budgets of the test's own.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-bench-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const WITHOUT = "/chapter/1, offline worker kept out";
const budgets = {
  lighthouseChapterWorker: {
    lighthouse: "/chapter/1",
    of: WITHOUT,
    maxLcpRatio: 1.05,
    maxLcpOverMs: 50,
    maxTbtOverMs: 20,
  },
};
const figures = (lcpMs: number, tbtMs: number) => ({
  lcpMs,
  tbtMs,
  cls: 0.002,
  accessibility: 100,
  performance: 100,
});

function check(lighthouse: Record<string, ReturnType<typeof figures>>, misses?: Record<string, string>) {
  const results = path.join(dir, `results-${Math.random().toString(36).slice(2)}.json`);
  const budgetsFile = path.join(dir, "budgets.json");
  fs.writeFileSync(results, JSON.stringify({ runs: {}, lighthouse, ...(misses ? { misses } : {}) }));
  fs.writeFileSync(budgetsFile, JSON.stringify(budgets));
  const run = spawnSync(
    process.execPath,
    ["bench/check.mjs", `--results=${results}`, `--budgets=${budgetsFile}`],
    { encoding: "utf8" },
  );
  return { status: run.status, line: run.stdout.split("\n")[0] ?? "" };
}

describe("bench check: a Lighthouse figure against another measurement's (`of`)", () => {
  it("meets the budget within 50 ms of LCP and 20 ms of TBT over the page without the worker", () => {
    const met = check({ "/chapter/1": figures(950, 35), [WITHOUT]: figures(900, 15) });
    expect(met.status).toBe(0);
    expect(met.line).toBe(
      `ok   lighthouseChapterWorker: /chapter/1: medians LCP 950 ms (max 950), TBT 35 ms (max 35); ${WITHOUT}: LCP 900 ms, TBT 15 ms`,
    );
  });

  it("misses it 1 ms over either allowance", () => {
    expect(check({ "/chapter/1": figures(951, 15), [WITHOUT]: figures(900, 15) })).toMatchObject({
      status: 1,
      line: expect.stringMatching(/^MISS lighthouseChapterWorker: .*LCP 951 ms \(max 950\)/),
    });
    expect(check({ "/chapter/1": figures(900, 36), [WITHOUT]: figures(900, 15) })).toMatchObject({
      status: 1,
      line: expect.stringMatching(/^MISS lighthouseChapterWorker: .*TBT 36 ms \(max 35\)/),
    });
  });

  it("allows 5 % of LCP where that is more than 50 ms", () => {
    expect(check({ "/chapter/1": figures(2100, 0), [WITHOUT]: figures(2000, 0) }).status).toBe(0);
    expect(check({ "/chapter/1": figures(2101, 0), [WITHOUT]: figures(2000, 0) }).status).toBe(1);
  });

  it("is not measured without either figure, naming the lighthouse part or its error", () => {
    expect(check({ "/chapter/1": figures(900, 15) })).toEqual({
      status: 1,
      line: "MISS lighthouseChapterWorker: not measured: run npm run bench -- --only=lighthouse",
    });
    expect(check({ [WITHOUT]: figures(900, 15) }, { lighthouse: "the worker was not kept out" })).toEqual({
      status: 1,
      line: "MISS lighthouseChapterWorker: not measured (part lighthouse failed: the worker was not kept out)",
    });
  });
});
