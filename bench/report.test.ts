import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Budget,
  benchTables,
  chartSvg,
  memoryRises,
  type Results,
  replaceGenerated,
  rows,
} from "./report";

const run = (rps: number, p99: number | null = 5, timeouts = 0) => ({
  rps,
  p50: 1,
  p99,
  non2xx: 0,
  timeouts,
});
const results: Results = {
  date: "2026-11-26T18:00:00.000Z",
  runs: {
    baselineBr: run(50_000),
    baselinePlain: run(40_000),
    chapterBr: run(25_000),
    chapterPlain: run(20_000),
    chapterFloodBr: run(10_000),
    accountSignedInBr: run(40, 1800),
    "<script>Br": run(5_000),
  },
  weights: {
    "/chapter/1": { htmlBytes: 20_969, htmlBrotliBytes: 7_000, jsBrotliKB: 99.8 },
    "/chapter/1101": { htmlBytes: 29_000, htmlBrotliBytes: 9_000, htmlToTextRatio: 1.219 },
  },
  referenceChapter: "/chapter/1101",
  lighthouse: {
    "/chapter/1": {
      lcpMs: 909,
      cls: 0.002,
      tbtMs: 22,
      accessibility: 100,
      performance: 100,
      workerScriptRequests: 2,
    },
    "/chapter/1, offline worker kept out": {
      lcpMs: 905,
      cls: 0.002,
      tbtMs: 20,
      accessibility: 100,
      performance: 100,
      workerScriptRequests: 0,
    },
    "/toc": { lcpMs: 910, cls: 0.006, tbtMs: 3, accessibility: 100, performance: 100 },
  },
  rssMB: 300,
};
const budgets: Record<string, Budget> = {
  chapterVisitorRatio: { run: "chapterBr", min: 0.4, of: "baselineBr" },
  chapterVisitorP99: { run: "chapterBr", maxP99Ms: 15 },
  chapterFloodRatio: { run: "chapterFloodBr", min: 0.5, of: "chapterBr" },
  accountSignedInRatio: { run: "accountSignedInBr", min: 0.01, of: "baselineBr" },
  accountSignedInP99: { run: "accountSignedInBr", maxP99Ms: 100 },
};

describe("bench report", () => {
  it("names each server's first start and the runs that raised its memory's high-water mark", () => {
    const entry = (server: string, run: string, peakRssMB: number) => ({ server, run, rssMB: 1, peakRssMB });
    const trail = [
      entry("big", "first start", 300),
      entry("big", "/chapter/1", 302),
      entry("big", "/account (signed in)", 380),
      entry("small", "first start", 290),
      entry("big", "/toc", 380),
    ];
    expect(memoryRises(trail).map((e) => `${e.server} ${e.run}`)).toEqual([
      "big first start",
      "big /account (signed in)",
      "small first start",
    ]);
    expect(benchTables({ ...results, memoryTrail: trail }, budgets)).toContain("/account (signed in)");
  });

  it("gives each brotli run its ratio to the baseline and whether its budgets are met", () => {
    const byRun = Object.fromEntries(rows(results, budgets).map((row) => [row.run, row]));
    expect(Object.keys(byRun)).toEqual(["chapterBr", "chapterFloodBr", "accountSignedInBr", "<script>Br"]);
    expect(byRun.chapterBr).toMatchObject({ ratio: 0.5, min: 0.4, maxP99Ms: 15, met: true });
    // The flood's budget is half the plain hit's rate: 0.25 of the baseline here, and 0.2 is under it.
    expect(byRun.chapterFloodBr).toMatchObject({ ratio: 0.2, min: 0.25, met: false });
    expect(byRun.accountSignedInBr).toMatchObject({ ratio: 0.0008, met: false });
    expect(byRun["<script>Br"]?.met).toBeUndefined();
  });

  it("misses a p99 budget when a reply timed out, whatever the p99", () => {
    const timedOut = { ...results, runs: { ...results.runs, chapterBr: run(25_000, 5, 1) } };
    expect(rows(timedOut, budgets).find((row) => row.run === "chapterBr")?.met).toBe(false);
  });

  it("draws a bar per page in its budget's colour, a mark at the budget, and escapes the names", () => {
    const svg = chartSvg(results, budgets);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(4);
    expect(svg).toContain('fill="#2e7d32"');
    expect(svg).toContain('fill="#c62828"');
    expect(svg).toContain('fill="#6b6b6b"');
    expect(svg.match(/stroke="#111"/g)).toHaveLength(3);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;Br");
    // Longer bars for higher ratios, on one scale.
    const width = (label: string) =>
      Number(new RegExp(`${label}</text><rect x="\\d+" y="\\d+" width="([\\d.]+)"`).exec(svg)?.[1]);
    expect(width("/chapter/1, visitor")).toBeGreaterThan(width("/account \\(dashboard\\), signed in"));
  });

  it("writes the bench README's tables from the results", () => {
    const written = benchTables(results, budgets);
    // Columns are padded as the formatter (Biome) pads them: every line of a table is as long as its header.
    for (const block of written.split("\n\n").filter((part) => part.startsWith("|"))) {
      const lengths = block.split("\n").map((line) => [...line].length);
      expect(new Set(lengths).size, block).toBe(1);
    }
    const tables = written.replace(/ {2,}/g, " ");
    expect(tables).toContain("| /chapter/1, visitor | 25,000 | 0.50 | 1 ms | 5 ms | ≥ 0.40, p99 ≤ 15 ms ✓ |");
    expect(tables).toContain(
      "| /account (dashboard), signed in | 40 | 0.00080 | 1 ms | 1.80 s | ≥ 0.010, p99 ≤ 100 ms **missed** |",
    );
    expect(tables).toContain("| /chapter/1 | 20,969 B | 7,000 B | – | 99.8 KB |");
    expect(tables).toContain("| /chapter/1101 (4,000 words) | 29,000 B | 9,000 B | 1.219 | – |");
    // The chapter page with the offline worker, without it (ADR 96), and a page whose worker was not counted.
    expect(tables).toContain("| /chapter/1 | 909 ms | 0.002 | 22 ms | 100 | 100 | 2 |");
    expect(tables).toContain(
      "| /chapter/1, offline worker kept out | 905 ms | 0.002 | 20 ms | 100 | 100 | 0 |",
    );
    expect(tables).toContain("| /toc | 910 ms | 0.006 | 3 ms | 100 | 100 | – |");
    expect(tables).toContain("answered 50,000 requests/s");
  });

  it("replaces only what stands between the markers, and refuses a file without them", () => {
    const start =
      "<!-- bench:start (generated by npm run bench from bench/results/latest.json; do not edit) -->";
    const readme = `# Title\n\n${start}\n\nold table\n\n<!-- bench:end -->\n\nAfter.\n`;
    expect(replaceGenerated(readme, "new table")).toBe(
      `# Title\n\n${start}\n\nnew table\n\n<!-- bench:end -->\n\nAfter.\n`,
    );
    expect(() => replaceGenerated("# Title\n", "x")).toThrow(/markers/);
    expect(() => replaceGenerated(`${readme}${start}`, "x")).toThrow(/markers/);
  });

  it("finds its markers in bench/README.md, and the project README holds no generated tables", () => {
    const read = (file: string) => fs.readFileSync(new URL(file, import.meta.url), "utf8");
    const bench = read("./README.md");
    expect(replaceGenerated(bench, "new table")).toContain("\n\nnew table\n\n<!-- bench:end -->");
    expect(read("../README.md")).not.toContain("bench:start");
  });
});
