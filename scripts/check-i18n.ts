/**
 * The catalogue check: every language has every key (with the plural forms its language needs) and the same
 * {{variables}}; every static t("key") in the code exists; no component renders text that bypasses the catalogue;
 * the browser's two halves of the catalogue (app/i18n/config.ts) hold what the pages need when they render.
 * Run by `npm run lint`; its functions are unit-tested in scripts/check-i18n.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { coreNamespaces, serverNamespaces } from "../app/i18n/config";

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

/**
 * The string literals and templates with words that an expression renders as text: its literal leaves, and
 * those reached through a choice (`a ? "Paid" : "Due"`, `x ?? "none"`, `ok && "Saved"`), a concatenation
 * (`n + " coins"`) or a template's parts (`${n} coins`). A call (`t("key")`, `format.money(…)`) or a
 * variable is not followed: what they return is theirs to answer for.
 */
function assembledText(node: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return hasWords(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) {
    // A template's words are text when they stand apart (`${n} coins`), not glued into a path or a name
    // (`/wiki/${slug}`, `artwork${slot}Caption`).
    const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return parts.some((part) => /\s[^\p{L}\s]*\p{L}{2,}|\p{L}{2,}[^\p{L}\s]*\s/u.test(part))
      ? [node]
      : node.templateSpans.flatMap((span) => assembledText(span.expression));
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node))
    return assembledText(node.expression);
  if (ts.isConditionalExpression(node))
    return [...assembledText(node.whenTrue), ...assembledText(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const operator = node.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return assembledText(node.right);
    if (
      operator === ts.SyntaxKind.PlusToken ||
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken
    )
      return [...assembledText(node.left), ...assembledText(node.right)];
  }
  if (ts.isArrayLiteralExpression(node))
    return node.elements.flatMap((element) => (ts.isExpression(element) ? assembledText(element) : []));
  return [];
}

/**
 * Properties whose value a page shows as the name or label of something (`{ label: "One-off gift" }`): text
 * a loader or a helper assembles for the page, which reaches it in one language whatever the reader's.
 */
const SHOWN_PROPERTIES = new Set(["label", "heading", "caption", "itemName"]);

/** Text in a .tsx file that bypasses the catalogue, and t("key") calls whose key is unknown. */
export function checkSource(file: string, code: string, knownKeys: Set<string>): string[] {
  const problems: string[] = [];
  const source = parse(file, code);
  const where = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${file}:${line + 1}`;
  };
  const assembled = (node: ts.Node, what: string) =>
    problems.push(`${where(node)}: ${what} assembled outside the catalogue: ${node.getText().slice(0, 60)}`);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.getText())) {
      problems.push(`${where(node)}: text outside the catalogue: "${node.getText().trim().slice(0, 60)}"`);
    }
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value)) {
        if (hasWords(value.text))
          problems.push(`${where(node)}: ${node.name.getText()}="${value.text}" outside the catalogue`);
      } else if (ts.isJsxExpression(value) && value.expression) {
        const expression = value.expression;
        if (ts.isStringLiteralLike(expression)) {
          if (hasWords(expression.text))
            problems.push(
              `${where(node)}: ${node.name.getText()}="${expression.text}" outside the catalogue`,
            );
        } else for (const leaf of assembledText(expression)) assembled(leaf, node.name.getText());
      }
    }
    // A child expression that renders words of its own: `{paid ? "Paid" : t("x")}`, `{`${n} coins`}`.
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    )
      for (const leaf of assembledText(node.expression)) assembled(leaf, "text");
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      SHOWN_PROPERTIES.has(node.name.text)
    )
      for (const leaf of assembledText(node.initializer)) assembled(leaf, `${node.name.text}:`);
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
    return entry.isDirectory() ? walk(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A project file's text by its path from the project root (`app/root.tsx`), or undefined if there is none. */
type Read = (file: string) => string | undefined;

/** The modules the browser starts with only the core namespaces: the layout and the core pages. */
export const coreModules = ["app/root.tsx", "app/routes/chapter.tsx", "app/routes/not-found.tsx"];
const fullCatalogue = "app/i18n/full-catalogue.ts";

const parse = (file: string, code: string) =>
  ts.createSourceFile(
    file,
    code,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

const lineOf = (source: ts.SourceFile, node: ts.Node) =>
  `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;

const namespaceOf = (key: string) => key.split(".")[0] ?? "";

/** The catalogue keys a module names: whole keys in strings, key beginnings in templates (`reader.${size}`). */
function namedKeys(source: ts.SourceFile, knownKeys: Set<string>) {
  const found: { key: string; where: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) && knownKeys.has(node.text)) {
      found.push({ key: node.text, where: lineOf(source, node) });
    } else if (ts.isTemplateExpression(node) && node.head.text.includes(".")) {
      found.push({ key: node.head.text, where: lineOf(source, node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveImport(from: string, specifier: string, read: Read): string | undefined {
  const base = specifier.startsWith("~/")
    ? path.posix.join("app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.posix.join(path.posix.dirname(from), specifier)
      : undefined; // a package
  if (base === undefined) return undefined;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]
    .map((ending) => base + ending)
    .find((file) => /\.tsx?$/.test(file) && read(file) !== undefined);
}

/** The project modules a module imports code from (types aside), static and dynamic imports alike. */
function imports(source: ts.SourceFile, read: Read): string[] {
  return importsByKind(source, read).map(({ file }) => file);
}

function importsByKind(source: ts.SourceFile, read: Read): { file: string; dynamic: boolean }[] {
  const specifiers: { specifier: string; dynamic: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.importClause?.isTypeOnly)
        specifiers.push({ specifier: node.moduleSpecifier.text, dynamic: false });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) specifiers.push({ specifier: node.moduleSpecifier.text, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push({ specifier: node.arguments[0].text, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.flatMap(({ specifier, dynamic }) => {
    const file = resolveImport(source.fileName, specifier, read);
    return file ? [{ file, dynamic }] : [];
  });
}

function bringsFullCatalogue(file: string, read: Read): boolean {
  const code = read(file);
  return code !== undefined && imports(parse(file, code), read).includes(fullCatalogue);
}

/**
 * What the core modules need on the browser: every key they or the modules they import (`.server` modules
 * aside: they never reach the browser) name in a string, `t("nav.home")` as `{ key: "nav.home" }`, or begin
 * in a template (`reader.settings.${size}`) must be in a core namespace, which the browser has before it
 * hydrates. And none of them may import the full catalogue, which would load it on the chapter page; a
 * part they load later (`import()`) may, and then brings its own texts.
 */
export function checkCoreModules(read: Read, knownKeys: Set<string>): string[] {
  const problems: string[] = [];
  const namespaces = new Set([...knownKeys].map(namespaceOf));
  // Every module reached, with the one that imports it first; the loop visits those added as it goes.
  const importer = new Map(coreModules.map((file) => [file, ""]));
  for (const file of importer.keys()) {
    if (file === fullCatalogue) {
      problems.push(`${importer.get(file)}: imports ${fullCatalogue} on the core pages`);
      continue;
    }
    const code = read(file);
    if (code === undefined) {
      problems.push(`${file}: core module not found`);
      continue;
    }
    const source = parse(file, code);
    for (const { key, where } of namedKeys(source, knownKeys)) {
      const namespace = namespaceOf(key);
      if (namespaces.has(namespace) && !coreNamespaces.includes(namespace)) {
        problems.push(`${where}: "${key}" is used by a core page but not in a core namespace`);
      }
    }
    for (const { file: imported, dynamic } of importsByKind(source, read)) {
      if (importer.has(imported) || /\.server\.tsx?$/.test(imported)) continue;
      // A part loaded later (a dialog) may bring the rest of the catalogue with it: then its texts are in
      // before it renders, and it is not part of what the page starts with.
      if (dynamic && bringsFullCatalogue(imported, read)) continue;
      importer.set(imported, file);
    }
  }
  return problems;
}

/** Keys of the server's namespaces named in a module the browser may load, which never has them. */
export function checkServerKeys(file: string, code: string, knownKeys: Set<string>): string[] {
  if (/\.(server|test)\.tsx?$/.test(file)) return [];
  return namedKeys(parse(file, code), knownKeys)
    .filter(({ key }) => serverNamespaces.includes(namespaceOf(key)))
    .map(({ key, where }) => `${where}: "${key}" is in a namespace only the server has`);
}

/** Every page outside the core imports the full catalogue, so that its texts are in before it renders. */
export function checkRouteModules(read: Read): string[] {
  const routes = parse("app/routes.ts", read("app/routes.ts") ?? "");
  const files: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) && /\.tsx?$/.test(node.text)) files.push(`app/${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(routes);
  return [...new Set(files)]
    .filter((file) => !coreModules.includes(file))
    .flatMap((file) => {
      const source = parse(file, read(file) ?? "");
      const renders = source.statements.some(
        (statement) =>
          ts.isExportAssignment(statement) ||
          (ts.canHaveModifiers(statement) &&
            ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)),
      );
      const importsFull = source.statements.some(
        (statement) =>
          ts.isImportDeclaration(statement) &&
          ts.isStringLiteral(statement.moduleSpecifier) &&
          statement.moduleSpecifier.text === "~/i18n/full-catalogue",
      );
      return renders && !importsFull
        ? [`${file}: a page outside the core lacks import "~/i18n/full-catalogue"`]
        : [];
    });
}

export function checkProject(root: string): string[] {
  const read: Read = (file) => {
    const full = path.join(root, file);
    return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
  };
  const catalogue = (language: string): Catalogue =>
    JSON.parse(read(`app/i18n/locales/${language}.json`) ?? "{}");
  const en = catalogue("en");
  const problems = ["es", "fr", "ja"].flatMap((language) =>
    compareCatalogues(en, catalogue(language), language),
  );
  const keys = new Set([...flatten(en).keys()].map((key) => key.replace(PLURAL, "")));
  for (const key of flatten(en).keys()) keys.add(key);
  for (const file of walk(path.join(root, "app"))) {
    const relative = path.relative(root, file);
    const code = fs.readFileSync(file, "utf8");
    if (file.endsWith(".tsx") || !file.endsWith(".test.ts"))
      problems.push(...checkSource(relative, code, keys));
    problems.push(...checkServerKeys(relative, code, keys));
  }
  problems.push(...checkCoreModules(read, keys), ...checkRouteModules(read));
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkProject(process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(`i18n check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log("i18n check: catalogues complete, no text outside them, core pages need only the core");
}
