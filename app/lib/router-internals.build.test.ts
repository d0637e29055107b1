// The build's patches to React Router (router-internals.build.ts) against the installed package's files: a
// React Router upgrade that moves a pattern fails here, and fails the build, rather than changing the
// browser's build unseen.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../tests/support/temp";
import {
  checkPatches,
  droppableRouterComponents,
  expectedPatches,
  patchRouterModule,
  productionReactRouter,
} from "./router-internals.build";

const require = createRequire(import.meta.url);
const productionDir = path.join(
  path.dirname(require.resolve("react-router/package.json")),
  "dist/production",
);
const productionFiles = fs
  .readdirSync(productionDir)
  .filter((file) => file.endsWith(".mjs"))
  .map((file) => path.join(productionDir, file));

/** The plugin as the browser's build runs it: every file of React Router's build through `transform`. */
function runPlugin(files: { id: string; code: string }[]) {
  const plugin = droppableRouterComponents(productionDir);
  const call = <T>(hook: unknown, ...args: unknown[]) =>
    (hook as (...args: unknown[]) => T).call({}, ...args);
  call(plugin.buildStart);
  const output = files.map(({ id, code }) => call<string | undefined>(plugin.transform, code, id));
  call(plugin.buildEnd);
  return output;
}

describe("React Router's build as the browser's build takes it (router-internals.build.ts)", () => {
  test("the production build is where the aliases point", () => {
    for (const { replacement } of productionReactRouter(productionDir))
      expect(fs.existsSync(replacement)).toBe(true);
    expect(() => productionReactRouter(tempDir())).toThrow(/production build has no/);
  });

  test("the patches change exactly the lines they are known to, in the installed package", () => {
    const patched = productionFiles.map((file) => patchRouterModule(fs.readFileSync(file, "utf8")));
    expect(() => checkPatches(patched)).not.toThrow();
    expect(patched.flatMap((module) => module.displayNames).sort()).toEqual(
      [...expectedPatches.displayNames].sort(),
    );
  });

  test("a patched component is marked pure and loses its name; nothing else changes", () => {
    const sample = [
      "var Link = React10.forwardRef(",
      "  function LinkWithRef({ to }, ref) {}",
      ");",
      'Link.displayName = "Link";',
      "let shown = Link.displayName;",
    ].join("\n");
    const { code, displayNames, forwardRefs } = patchRouterModule(sample);
    expect(code).toBe(
      [
        "var Link = /* @__PURE__ */ React10.forwardRef(",
        "  function LinkWithRef({ to }, ref) {}",
        ");",
        "",
        "let shown = Link.displayName;",
      ].join("\n"),
    );
    expect({ displayNames, forwardRefs }).toEqual({ displayNames: ["Link"], forwardRefs: ["Link"] });
  });

  test("a build of React Router written otherwise fails the build", () => {
    const installed = productionFiles.map((file) => ({ id: file, code: fs.readFileSync(file, "utf8") }));
    expect(() => runPlugin(installed)).not.toThrow();
    // The same code as another bundler might write it: the patterns no longer match.
    const rewritten = installed.map(({ id, code }) => ({
      id,
      code: code.replace(/^(\w+)\.displayName = ("\w+");$/gm, "$1.displayName=$2;"),
    }));
    expect(() => runPlugin(rewritten)).toThrow(/displayNames patch .* found none/);
    const renamed = installed.map(({ id, code }) => ({
      id,
      code: code.replace(/var NavLink = React10\.forwardRef\(/, "var NavLink = forwardRef("),
    }));
    expect(() => runPlugin(renamed)).toThrow(/forwardRefs patch .*found FetcherForm2, Form, Link$/);
    // A component more is a change too: its name would be left out unseen.
    const added = [
      ...installed,
      { id: path.join(productionDir, "extra.mjs"), code: 'Extra.displayName = "Extra";' },
    ];
    expect(() => runPlugin(added)).toThrow(/displayNames patch/);
  });

  test("files outside React Router's production build are left alone", () => {
    const code = 'Mine.displayName = "Mine";';
    const installed = productionFiles.map((file) => ({ id: file, code: fs.readFileSync(file, "utf8") }));
    const output = runPlugin([...installed, { id: "/app/ui/mine.tsx", code }]);
    expect(output.at(-1)).toBeUndefined();
  });
});
