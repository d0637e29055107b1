/**
 * The docs against the code they describe: every environment variable the server reads is in
 * docs/configuration.md, every feature folder in docs/architecture.md's list, the ADR index and the ADR files
 * agree, every relative link in the guides and READMEs leads to a file, and neither the docs nor the code
 * cite an issue tracker the repository does not hold.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The source files of the code that runs the site (not its tests). */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(root, path.join(entry.parentPath, entry.name));
    return entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [file]
      : [];
  });
}

describe("the docs", () => {
  it("list every environment variable the server reads in docs/configuration.md", () => {
    const env = read("app/lib/env.server.ts");
    const schema = env.slice(env.indexOf("const schema = z"));
    const validated = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1] ?? "");
    const readDirectly = ["app", "server", "db", "scripts"]
      .flatMap(sources)
      .concat("server.mjs")
      .flatMap((file) =>
        [...read(file).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1] ?? ""),
      );
    expect(validated.length).toBeGreaterThan(30);
    const configuration = read("docs/configuration.md");
    const missing = [...new Set([...validated, ...readDirectly])].filter(
      (name) => !configuration.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });

  it("list every feature folder in docs/architecture.md, and no folder that is not there", () => {
    const architecture = read("docs/architecture.md");
    const section = architecture.slice(
      architecture.indexOf("## Feature folders"),
      architecture.indexOf("## Data"),
    );
    const listed = [...section.matchAll(/^\| `([a-z-]+)` /gm)].map((match) => match[1]).sort();
    const folders = fs
      .readdirSync(path.join(root, "app/features"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(listed).toEqual(folders);
  });

  it("give the README the import direction docs/architecture.md gives", () => {
    const arrows = (text: string) => /`(routes -> [^`]+)`/.exec(text)?.[1];
    expect(arrows(read("README.md"))).toBeDefined();
    expect(arrows(read("README.md"))).toBe(arrows(read("docs/architecture.md")));
  });

  it("keep the ADR index and the ADR files in step: a row per file, its number, title's number and date", () => {
    const dir = "docs/decisions";
    const files = fs.readdirSync(path.join(root, dir)).filter((name) => /^\d{4}-.+\.md$/.test(name));
    const rows = [
      ...read(`${dir}/README.md`).matchAll(/^\| \[(\d+)\]\(([^)]+)\) *\|[^|]*\| *(\S+) *\|/gm),
    ].map((match) => ({ number: Number(match[1]), file: match[2] ?? "", date: match[3] }));
    expect(rows.map((row) => row.file).sort()).toEqual([...files].sort());
    expect(rows.map((row) => row.number)).toEqual(rows.map((row) => row.number).sort((a, b) => a - b));
    for (const row of rows) {
      const text = read(`${dir}/${row.file}`);
      expect(Number(row.file.slice(0, 4)), row.file).toBe(row.number);
      expect(text.startsWith(`# ${row.number}. `), row.file).toBe(true);
      expect(/^Date: (\S+)$/m.exec(text)?.[1], row.file).toBe(row.date);
      expect(text, row.file).toMatch(/^Status: \S/m);
    }
  });

  it("lead every relative link of the READMEs and guides to a file", () => {
    const pages = [
      "README.md",
      "bench/README.md",
      "tests/README.md",
      ...fs
        .readdirSync(path.join(root, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
      "docs/decisions/README.md",
    ];
    const broken = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !fs.existsSync(path.join(root, path.dirname(page), target)))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("name no issue tracker that is not in the repository", () => {
    const pages = [
      "README.md",
      "bench/README.md",
      ...fs
        .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const mentions = pages.filter((page) => /\bissues? \d+/i.test(read(page)));
    expect(mentions).toEqual([]);
  });
});

describe("the code", () => {
  it("names no issue tracker either: its comments, test titles and data files say why instead", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((file) => /\.(ts|tsx|mjs|js|cjs|lua|json|css|sql)$/.test(file))
      .filter((file) => fs.existsSync(path.join(root, file)));
    expect(files.length).toBeGreaterThan(100);
    const mentions = files.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, index) =>
          /\bissues? \d+/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(mentions).toEqual([]);
  });
});
