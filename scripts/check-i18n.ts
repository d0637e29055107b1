/**
 * The catalogue check: every language has every key (with the plural forms its language needs) and the same
 * {{variables}}; every static t("key") in the code exists; no component renders text that bypasses the catalogue.
 * Run by `npm run lint`; its functions are unit-tested in tests/unit/check-i18n.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

type Catalogue = { [key: string]: string | Catalogue };
const PLURAL = /_(zero|one|two|few|many|other)$/;

export function flatten(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

const variables = (text: string) => new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]));

/** Problems in `other` compared with the reference catalogue `en`. */
export function compareCatalogues(en: Catalogue, other: Catalogue, language: string): string[] {
  const problems: string[] = [];
  const source = flatten(en);
  const target = flatten(other);
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const bases = (map: Map<string, string>) => new Set([...map.keys()].map((key) => key.replace(PLURAL, "")));
  const sourceBases = bases(source);
  const targetBases = bases(target);
  for (const base of sourceBases) {
    const plural = !source.has(base);
    if (!targetBases.has(base)) {
      problems.push(`${language}: missing key ${base}`);
      continue;
    }
    const forms = plural ? categories.map((category) => `${base}_${category}`) : [base];
    for (const form of forms) {
      if (!target.has(form)) problems.push(`${language}: missing plural form ${form}`);
    }
    const reference = plural ? (source.get(`${base}_other`) ?? "") : (source.get(base) ?? "");
    for (const form of forms) {
      const text = target.get(form);
      if (text === undefined) continue;
      if (text.trim() === "") problems.push(`${language}: empty text for ${form}`);
      const have = variables(text);
      for (const name of variables(reference)) {
        // A plural form may spell the number out ("one coin") and leave {{count}} away.
        if (!have.has(name) && !(name === "count" && plural))
          problems.push(`${language}: ${form} lacks {{${name}}}`);
      }
      for (const name of have) {
        if (!variables(reference).has(name) && name !== "count")
          problems.push(`${language}: ${form} has unknown {{${name}}}`);
      }
    }
  }
  for (const base of targetBases) {
    if (!sourceBases.has(base)) problems.push(`${language}: key ${base} is not in en`);
  }
  return problems;
}

/** Attributes whose text a person reads or hears. */
const TEXT_ATTRIBUTES = new Set(["alt", "title", "placeholder", "aria-label", "aria-description", "label"]);
const hasWords = (text: string) => /\p{L}{2,}/u.test(text);

/** Text in a .tsx file that bypasses the catalogue, and t("key") calls whose key is unknown. */
export function checkSource(file: string, code: string, knownKeys: Set<string>): string[] {
  const problems: string[] = [];
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const where = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${file}:${line + 1}`;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.getText())) {
      problems.push(`${where(node)}: text outside the catalogue: "${node.getText().trim().slice(0, 60)}"`);
    }
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      const literal = ts.isStringLiteral(value)
        ? value.text
        : ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression)
          ? value.expression.text
          : undefined;
      if (literal && hasWords(literal)) {
        problems.push(`${where(node)}: ${node.name.getText()}="${literal}" outside the catalogue`);
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "t" &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const key = node.arguments[0].text;
      if (!knownKeys.has(key)) problems.push(`${where(node)}: unknown message key "${key}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.name.endsWith(".tsx") ? [full] : [];
  });
}

export function checkProject(root: string): string[] {
  const localeDir = path.join(root, "app/i18n/locales");
  const read = (language: string) =>
    JSON.parse(fs.readFileSync(path.join(localeDir, `${language}.json`), "utf8"));
  const en = read("en") as Catalogue;
  const problems = ["es", "fr", "ja"].flatMap((language) => compareCatalogues(en, read(language), language));
  const keys = new Set([...flatten(en).keys()].map((key) => key.replace(PLURAL, "")));
  for (const key of flatten(en).keys()) keys.add(key);
  for (const file of walk(path.join(root, "app"))) {
    problems.push(...checkSource(path.relative(root, file), fs.readFileSync(file, "utf8"), keys));
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkProject(process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(`i18n check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log("i18n check: catalogues complete, no text outside them");
}
