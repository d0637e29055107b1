// npm run bench:report (the last step of npm run bench): from bench/results/latest.json and bench/budgets.json,
// writes bench/results/latest.svg (every measured page's requests/s as a ratio of the same run's baseline, on a
// log scale, with its budget) and regenerates the performance tables of bench/README.md between their markers,
// so no figure in them is typed by hand. Usage: tsx bench/report.ts [--tables=bench/README.md]
import fs from "node:fs";
import { scaleLog } from "d3-scale";

export type Run = { rps: number; p50: number | null; p99: number | null; non2xx?: number; timeouts?: number };
export type Results = {
  date: string;
  runs: Record<string, Run>;
  weights?: Record<
    string,
    { htmlBytes: number; htmlBrotliBytes: number; jsBrotliKB?: number; htmlToTextRatio?: number }
  >;
  referenceChapter?: string;
  lighthouse?: Record<
    string,
    {
      lcpMs: number;
      cls: number;
      tbtMs: number;
      accessibility: number;
      performance: number;
      /** GET /sw.js in the server's access log during a run (median), where the bench counted them. */
      workerScriptRequests?: number;
    }
  >;
  rssMB?: number;
  /** The most any server held (first starts, content import included); the fixtures' generators apart. */
  peakRssMB?: number;
  fixturePeakRssMB?: number;
  /** Each server's memory at its first start and after each load run on it (bench/run.mjs). */
  memoryTrail?: MemoryEntry[];
  /** The leak check: the server's memory after each of three rounds of the same load (bench/run.mjs). */
  leakCheck?: { round: number; rssMB: number; peakRssMB: number }[];
  /** The first render after an author's edit of a chapter's text (bench/cache-miss.mjs). */
  cacheMiss?: { page: string; rounds: number; medianMs: number; p90Ms: number; otherKeptRounds: number };
};
/** `fixture`: a process making the bench's data (the long serial, its readers) before a server starts. */
export type MemoryEntry = {
  server: string;
  run: string;
  rssMB: number;
  peakRssMB: number;
  fixture?: boolean;
  /** The bench part whose run it followed (bench/run.mjs). */
  part?: string;
};
export type Budget = { run?: string; min?: number; of?: string; maxP99Ms?: number };

/** What each run measures, as the tables name it; a run not listed here is shown by its own name. */
const labels: Record<string, string> = {
  chapterBr: "/chapter/1, visitor",
  chapterSmallBr: "/chapter/1, 10 chapters (not 1,010)",
  chapterSignedInBr: "/chapter/1, signed-in reader",
  chapterFloodBr: "/chapter/1, invented spellings (flood.lua)",
  tocBr: "/toc (1,010 chapters)",
  homeBr: "/",
  shopBr: "/shop",
  productBr: "/shop/product/1, visitor",
  inquiryBr: "/shop/product/6/inquire",
  fundraiserBr: "/fundraiser",
  supportersBr: "/fundraiser/supporters?page=2",
  commentsBr: "chapter 1's comments (route data)",
  checkoutSignedInBr: "/checkout, signed in, a line in the cart",
  accountSignedInBr: "/account (dashboard), signed in",
  achievementsSignedInBr: "/achievements, signed in",
  settingsSignedInBr: "/settings, signed in",
  releaseMinuteBr: "a chapter's release minute, half signed in (release.lua)",
};

export type Row = {
  run: string;
  label: string;
  rps: number;
  ratio: number;
  p50: number | null;
  p99: number | null;
  /** The lowest ratio to the baseline its budget allows, where it has one. */
  min?: number;
  maxP99Ms?: number;
  met?: boolean;
};

/**
 * One row per page measured with brotli (the budgeted runs), its ratio to the baseline of the same run and
 * its budgets. A budget against another run (the flood against the plain hit) is turned into a ratio to
 * the baseline, so every mark on the chart is on one scale.
 */
export function rows(results: Results, budgets: Record<string, Budget>): Row[] {
  const baseline = results.runs.baselineBr?.rps;
  if (!baseline) throw new Error("the results have no baseline run (baselineBr)");
  const ratioOf = (run: string) => (results.runs[run]?.rps ?? 0) / baseline;
  return Object.entries(results.runs)
    .filter(([run]) => run.endsWith("Br") && run !== "baselineBr")
    .map(([run, figures]) => {
      const own = Object.values(budgets).filter((budget) => budget.run === run);
      const ratioBudget = own.find((budget) => budget.min !== undefined && budget.of);
      const min = ratioBudget?.min && ratioBudget.of ? ratioBudget.min * ratioOf(ratioBudget.of) : undefined;
      const maxP99Ms = own.find((budget) => budget.maxP99Ms !== undefined)?.maxP99Ms;
      const ratio = ratioOf(run);
      const budgeted = min !== undefined || maxP99Ms !== undefined;
      const met =
        (min === undefined || ratio >= min) &&
        (maxP99Ms === undefined ||
          (figures.p99 !== null && figures.p99 <= maxP99Ms && !figures.timeouts && !figures.non2xx));
      return {
        run,
        label: labels[run] ?? run,
        rps: figures.rps,
        ratio,
        p50: figures.p50,
        p99: figures.p99,
        ...(min === undefined ? {} : { min }),
        ...(maxP99Ms === undefined ? {} : { maxP99Ms }),
        ...(budgeted ? { met } : {}),
      };
    });
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

const ratioText = (ratio: number) => (ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2));

/**
 * The chart: a bar per page, its length the ratio to the baseline on a log scale (the reader's own pages sit
 * two orders of magnitude under the kept ones), green where every budget of the page is met, red where one is
 * missed, grey without a budget; a black mark at the lowest ratio the budget allows.
 */
export function chartSvg(results: Results, budgets: Record<string, Budget>): string {
  const data = rows(results, budgets);
  const width = 760;
  const left = 290;
  const right = 60;
  const top = 48;
  const rowHeight = 24;
  const height = top + data.length * rowHeight + 34;
  const lowest = Math.min(0.001, ...data.map((row) => row.ratio).filter((ratio) => ratio > 0));
  const x = scaleLog()
    .domain([lowest / 2, 1])
    .range([left, width - right])
    .clamp(true);
  const baseline = Math.round(results.runs.baselineBr?.rps ?? 0);
  const ticks = [0.001, 0.01, 0.1, 1].filter((tick) => tick >= lowest / 2);
  const colour = (row: Row) => (row.met === undefined ? "#6b6b6b" : row.met ? "#2e7d32" : "#c62828");
  const bars = data.map((row, index) => {
    const y = top + index * rowHeight;
    const end = x(Math.max(row.ratio, lowest / 2));
    const mark =
      row.min === undefined
        ? ""
        : `<line x1="${x(row.min).toFixed(1)}" x2="${x(row.min).toFixed(1)}" y1="${y + 2}" y2="${y + rowHeight - 4}" stroke="#111" stroke-width="2"/>`;
    const status = row.met === undefined ? "" : row.met ? "" : " (budget missed)";
    return [
      `<g><title>${escapeXml(`${row.label}: ${Math.round(row.rps)} requests/s, ${ratioText(row.ratio)} of the baseline, p99 ${row.p99} ms${status}`)}</title>`,
      `<text x="${left - 8}" y="${y + 15}" text-anchor="end">${escapeXml(row.label)}</text>`,
      `<rect x="${left}" y="${y + 4}" width="${(end - left).toFixed(1)}" height="${rowHeight - 10}" fill="${colour(row)}"/>`,
      mark,
      `<text x="${(end + 4).toFixed(1)}" y="${y + 15}">${ratioText(row.ratio)}</text></g>`,
    ].join("");
  });
  const axisY = top + data.length * rowHeight + 6;
  const axis = ticks.map(
    (tick) =>
      `<line x1="${x(tick)}" x2="${x(tick)}" y1="${top}" y2="${axisY}" stroke="#ccc"/><text x="${x(tick)}" y="${axisY + 16}" text-anchor="middle">${tick}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12" role="img" aria-labelledby="chart-title">`,
    `<title id="chart-title">Requests per second as a ratio of the baseline (${baseline}/s), ${escapeXml(results.date)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="20" font-size="14" font-weight="bold">${escapeXml(`npm run bench, ${results.date}: requests/s ÷ the baseline's (${baseline}/s), log scale`)}</text>`,
    `<text x="12" y="38" fill="#444">green: budget met · red: budget missed · grey: no budget · black mark: the budget's lowest ratio</text>`,
    ...axis,
    ...bars,
    "</svg>",
    "",
  ].join("\n");
}

const integer = (value: number) => Math.round(value).toLocaleString("en-US");
const ms = (value: number | null) =>
  value === null ? "–" : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${+value.toFixed(1)} ms`;

/** A Markdown table: its header cells, then a row of cells per line, columns padded as the formatter does. */
function table(header: string[], body: (string | number)[][]): string {
  const rows = [header, ...body].map((cells) => cells.map(String));
  const widths = header.map((_, column) =>
    Math.max(3, ...rows.map((cells) => [...(cells[column] ?? "")].length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell + " ".repeat((widths[column] ?? 0) - [...cell].length)).join(" | ")} |`;
  const [head = [], ...rest] = rows;
  return [line(head), line(widths.map((width) => "-".repeat(width))), ...rest.map(line)].join("\n");
}

/** The bench README's tables, in Markdown, from the results: requests, page weights and Lighthouse. */
export function benchTables(results: Results, budgets: Record<string, Budget>): string {
  const parts = [
    [
      `Figures of the run of ${results.date.slice(0, 16).replace("T", " ")} UTC (generated by \`npm run bench\` from`,
      "`bench/results/latest.json`; the baseline, a bare Node server sending the chapter page's bytes,",
      `answered ${integer(results.runs.baselineBr?.rps ?? 0)} requests/s in this run: compare ratios, not absolute figures).`,
    ].join("\n"),
    table(
      ["Page (brotli, 50 connections)", "Requests/s", "vs baseline", "p50", "p99", "Budget"],
      rows(results, budgets).map((row) => {
        const budget = [
          row.min === undefined ? "" : `≥ ${ratioText(row.min)}`,
          row.maxP99Ms === undefined ? "" : `p99 ≤ ${ms(row.maxP99Ms)}`,
        ]
          .filter(Boolean)
          .join(", ");
        const status = row.met === undefined ? "" : row.met ? " ✓" : " **missed**";
        return [
          row.label,
          integer(row.rps),
          ratioText(row.ratio),
          ms(row.p50),
          ms(row.p99),
          `${budget || "–"}${status}`,
        ];
      }),
    ),
  ];
  if (results.weights)
    parts.push(
      table(
        ["Page", "HTML", "HTML, brotli", "HTML ÷ chapter text", "JavaScript, brotli"],
        Object.entries(results.weights).map(([page, weight]) => [
          page === results.referenceChapter ? `${page} (4,000 words)` : page,
          `${integer(weight.htmlBytes)} B`,
          `${integer(weight.htmlBrotliBytes)} B`,
          weight.htmlToTextRatio ?? "–",
          weight.jsBrotliKB === undefined ? "–" : `${weight.jsBrotliKB} KB`,
        ]),
      ),
    );
  if (results.lighthouse)
    parts.push(
      table(
        [
          "Lighthouse, mobile, median of 5",
          "LCP",
          "CLS",
          "TBT",
          "Accessibility",
          "Performance (not budgeted)",
          "GET /sw.js a run",
        ],
        Object.entries(results.lighthouse).map(([page, figures]) => [
          page,
          ms(figures.lcpMs),
          figures.cls,
          ms(figures.tbtMs),
          figures.accessibility,
          figures.performance,
          figures.workerScriptRequests ?? "–",
        ]),
      ),
    );
  if (results.cacheMiss) {
    const miss = results.cacheMiss;
    parts.push(
      `A cache miss after an author's edit of ${miss.page}'s text: the next visitor's request answered in ${ms(miss.medianMs)} median (p90 ${ms(miss.p90Ms)}) over ${miss.rounds} edits; another chapter's page stayed kept through ${miss.otherKeptRounds} of them.`,
    );
  }
  if (results.leakCheck?.length)
    parts.push(
      `The leak check, the same load three times over on one server: RSS ${results.leakCheck.map((round) => `${round.rssMB} MB`).join(", ")} after each round.`,
    );
  if (results.rssMB !== undefined)
    parts.push(
      `Server RSS after the run: ${results.rssMB} MB${results.peakRssMB === undefined ? "" : `, at most ${results.peakRssMB} MB during the bench`}${results.fixturePeakRssMB ? ` (the processes making the bench's long serial and readers, not the site: at most ${results.fixturePeakRssMB} MB)` : ""}.`,
    );
  const rises = memoryRises(results.memoryTrail ?? []);
  if (rises.length)
    parts.push(
      table(
        [
          "Memory: each server's first start (the content loaded into an empty database), each run that raised its high-water mark, and the bench's fixtures",
          "Run",
          "RSS",
          "Most held",
        ],
        rises.map((entry) => [entry.server, entry.run, `${entry.rssMB} MB`, `${entry.peakRssMB} MB`]),
      ),
    );
  return parts.join("\n\n");
}

/** Each server's first start, and the runs after which its high-water mark rose by 5 MB or more. */
export function memoryRises(trail: MemoryEntry[]): MemoryEntry[] {
  const highest = new Map<string, number>();
  return trail.filter((entry) => {
    const before = highest.get(entry.server);
    highest.set(entry.server, Math.max(before ?? 0, entry.peakRssMB));
    return before === undefined || entry.peakRssMB >= before + 5;
  });
}

const START = "<!-- bench:start (generated by npm run bench from bench/results/latest.json; do not edit) -->";
const END = "<!-- bench:end -->";

/** The text with what stands between the markers replaced; both markers must be there, once each. */
export function replaceGenerated(text: string, generated: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start || text.indexOf(START, start + 1) >= 0)
    throw new Error(`the tables' file needs the markers ${START} and ${END}, once each, in that order`);
  return `${text.slice(0, start + START.length)}\n\n${generated}\n\n${text.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target =
    process.argv.find((arg) => arg.startsWith("--tables="))?.slice("--tables=".length) ?? "bench/README.md";
  const results: Results = JSON.parse(fs.readFileSync("bench/results/latest.json", "utf8"));
  const budgets: Record<string, Budget> = JSON.parse(fs.readFileSync("bench/budgets.json", "utf8"));
  fs.writeFileSync("bench/results/latest.svg", chartSvg(results, budgets));
  fs.writeFileSync(target, replaceGenerated(fs.readFileSync(target, "utf8"), benchTables(results, budgets)));
  console.log(`wrote bench/results/latest.svg and the tables of ${target}`);
}
