import fs from "node:fs";
import { minify } from "terser";
import { type Plugin, parseAst, transformWithOxc } from "vite";

const query = "?inline-script";

/**
 * A module of one exported function as the text of a function expression, minified: what a page's inline
 * script calls (`(<text>)(arguments)`). The function runs in the browser apart from its module, so the module
 * must hold nothing else; the build fails otherwise.
 */
export async function inlineScript(source: string, file: string): Promise<string> {
  // Throws on a syntax error.
  const { code } = await transformWithOxc(source, file, { lang: "ts" });
  const [only, ...others] = parseAst(code).body;
  if (
    others.length ||
    only?.type !== "ExportNamedDeclaration" ||
    only.declaration?.type !== "FunctionDeclaration" ||
    !only.declaration.id
  )
    throw new Error(`${file}: an inline script's module holds one exported function and nothing else`);
  // As the browser's build minifies (vite.config.ts).
  const minified = await minify(code, {
    module: true,
    ecma: 2020,
    compress: { passes: 3 },
    format: { comments: false },
  });
  const head = `export function ${only.declaration.id.name}(`;
  if (!minified.code?.startsWith(head)) throw new Error(`${file}: the minifier wrote no exported function`);
  return `function(${minified.code.slice(head.length)}`;
}

/**
 * `import text from "./x.ts?inline-script"`: the text of the module's function (`inlineScript`), for a
 * script the server writes into the page; the module itself stays readable and unit-tested (ADR 72).
 */
export function inlineScripts(): Plugin {
  return {
    name: "inline-scripts",
    enforce: "pre",
    async load(id) {
      if (!id.endsWith(query)) return undefined;
      const file = id.slice(0, -query.length);
      this.addWatchFile(file);
      const text = await inlineScript(fs.readFileSync(file, "utf8"), file);
      return `export default ${JSON.stringify(text)};\n`;
    },
  };
}
