/**
 * The feature graph check: no two features depend on each other, directly or through others. Biome holds
 * the rest of the code direction (biome.json: restricted imports per folder, and file-level import cycles),
 * but it sees files, not folders: `auth/session.server.ts -> reader/settings.ts` and
 * `reader/access.server.ts -> auth/session.server.ts` form no file cycle, yet tie the two features so
 * neither can change alone. Type-only imports count: they tie the code as much as values do.
 * Run by `npm run lint`; its functions are unit-tested in scripts/check-architecture.test.ts.
 */
import fs from "node:fs";
import path from "node:path";

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** Every module specifier a source file names (static, re-exported or dynamic). */
export function specifiers(code: string): string[] {
  return [...code.matchAll(IMPORT)].map((match) => match[1] ?? "");
}

/** The feature a specifier written in `file` (relative to the project root) points into, if any. */
export function featureOf(file: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith("~/")) target = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.posix.join(path.posix.dirname(file), specifier);
  else return undefined;
  return /^app\/features\/([^/]+)\//.exec(`${target}/`)?.[1];
}

export type Graph = Map<string, Map<string, string>>;

/** Feature -> the features it imports, each with one file that does (to name in the message). */
export function featureGraph(files: { file: string; code: string }[]): Graph {
  const graph: Graph = new Map();
  for (const { file, code } of files) {
    const from = featureOf(file, "./");
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of specifiers(code)) {
      const to = featureOf(file, specifier);
      if (to && to !== from && !edges.has(to)) edges.set(to, file);
    }
  }
  return graph;
}

/** Each cycle once, as the features along it with the file behind each arrow. */
export function findCycles(graph: Graph): string[] {
  const problems: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    const start = path.indexOf(node);
    if (start >= 0) {
      const cycle = [...path.slice(start), node];
      const steps = cycle.slice(1).map((to, i) => `${to} (${graph.get(cycle[i] ?? "")?.get(to)})`);
      problems.push(`feature cycle: ${node} -> ${steps.join(" -> ")}`);
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return problems;
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

/**
 * Stylesheets are the root's: it writes its two links itself, and the page renders no `<Links />` (which
 * would also write a route module's own stylesheets; leaving it out keeps 0.3 KB off every page, ADR 48).
 * A stylesheet imported anywhere else would be built and never linked, so it is refused here.
 */
export function strayStylesheets(files: { file: string; code: string }[]): string[] {
  return files.flatMap(({ file, code }) =>
    file === "app/root.tsx"
      ? []
      : specifiers(code)
          .filter((specifier) => /\.css(\?|$)/.test(specifier))
          .map((specifier) => `stylesheet outside app/root.tsx: ${file} imports ${specifier}`),
  );
}

/**
 * Every route carries its rules (ADR 73): app/routes.ts builds its routes with the helpers of
 * app/lib/route-rules.ts, whose `route` and `index` take the rules. React Router's own helpers take none, so
 * the table may import only types from "@react-router/dev/routes"; nor may its default export be written by
 * hand (a route in it would have no rules).
 */
export function routesWithoutRules(code: string): string[] {
  const problems: string[] = [];
  const devImport = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']@react-router\/dev\/routes["']/g;
  for (const [, typeOnly, names = ""] of code.matchAll(devImport)) {
    const values = names
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name && !typeOnly && !name.startsWith("type "));
    if (values.length)
      problems.push(
        `app/routes.ts: imports ${values.join(", ")} from @react-router/dev/routes, which take no rules: use app/lib/route-rules.ts`,
      );
  }
  if (/import\s+\*\s+as\s+\w+\s+from\s*["']@react-router\/dev\/routes["']/.test(code))
    problems.push("app/routes.ts: imports @react-router/dev/routes whole: use app/lib/route-rules.ts");
  if (!/export default siteRoutes\.config\b/.test(code))
    problems.push("app/routes.ts: the default export is not the route table's config (`siteRoutes.config`)");
  return problems;
}

/** The tables of db/schema, by the name code writes them with (the export) -> their name in SQL. */
export function schemaTables(files: { code: string }[]): Map<string, string> {
  const tables = new Map<string, string>();
  for (const { code } of files)
    for (const [, name = "", table = ""] of code.matchAll(/export const (\w+) = pgTable\(\s*["'](\w+)["']/g))
      tables.set(name, table);
  return tables;
}

/**
 * What the admin writes itself (ADR 80): the author role, which says who may use the admin at all. Every
 * other write is a domain's and lives in its folder (app/features/<domain>/), which the admin's routes call;
 * the audit entry of a change is written there too, through features/audit.
 */
export const ADMIN_OWN_WRITES: Record<string, readonly string[]> = {
  "app/features/admin/roles.server.ts": ["users"],
};

const DRIZZLE_WRITE = /\.(insert|update|delete)\(\s*(?:\w+\.)?(\w+)\s*[,)]/g;
/** The audited row editing of features/audit writes the table it is given: `rowEditing(kind, table, table.id…`. */
const ROW_EDITING = /\b(\w+)\s*,\s*\1\.\w+\s*,/g;
const SQL_TEMPLATE = /\bsql(?:\.raw\()?\s*`([^`]*)`/g;
const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+"?(\w+)"?/gi;

/**
 * Domain writes kept in app/features/admin/: a file there that inserts, updates or deletes a table of
 * db/schema (Drizzle's `.insert(table)`, `.update(table)`, `.delete(table)`, `rowEditing(kind, table, table.id, …)`, or
 * SQL in a `sql` template) other than the admin's own, named by file and table. `tables` maps each table's export to its SQL name.
 */
export function adminDomainWrites(files: { file: string; code: string }[], tables: Map<string, string>) {
  const sqlNames = new Map([...tables].map(([name, table]) => [table, name]));
  const problems: string[] = [];
  for (const { file, code } of files) {
    if (!file.startsWith("app/features/admin/")) continue;
    const written = new Set<string>();
    for (const [, , name = ""] of code.matchAll(DRIZZLE_WRITE)) if (tables.has(name)) written.add(name);
    if (code.includes("rowEditing("))
      for (const [, name = ""] of code.matchAll(ROW_EDITING)) if (tables.has(name)) written.add(name);
    for (const [, text = ""] of code.matchAll(SQL_TEMPLATE))
      for (const [, , table = ""] of text.matchAll(SQL_WRITE)) {
        const name = sqlNames.get(table.toLowerCase());
        if (name) written.add(name);
      }
    const own = ADMIN_OWN_WRITES[file] ?? [];
    for (const name of [...written].filter((name) => !own.includes(name)).sort())
      problems.push(
        `domain write in the admin: ${file} writes ${tables.get(name)} (${name}); move it to its domain's folder (ADR 80)`,
      );
  }
  return problems;
}

const sources = (root: string, dir: string) =>
  [...walk(path.join(root, dir))].map((full) => ({
    file: path.relative(root, full).split(path.sep).join("/"),
    code: fs.readFileSync(full, "utf8"),
  }));

/** Tests may reach across features to set a scene; the app's own modules may not tie features in a loop. */
export function checkProject(root: string): string[] {
  return [
    ...findCycles(featureGraph(sources(root, "app/features"))),
    ...strayStylesheets(sources(root, "app")),
    ...routesWithoutRules(fs.readFileSync(path.join(root, "app/routes.ts"), "utf8")),
    ...adminDomainWrites(sources(root, "app/features/admin"), schemaTables(sources(root, "db/schema"))),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkProject(process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(
      `architecture check: ${problems.length} problem(s); move a shared part into its own feature, a domain's write into its folder, a stylesheet into app.css`,
    );
    process.exit(1);
  }
  console.log(
    "architecture check: no feature depends on itself through others; the admin writes no domain's tables; stylesheets are the root's; every route has its rules",
  );
}
