/**
 * The build's changes to React Router's own files (vite.config.ts), with the React Router internals they rely
 * on: the other half of router-internals.ts, for the build. Each checks what it changed against what this
 * version of React Router is known to hold and fails the build on any difference, so an upgrade that moves a
 * pattern cannot silently change the browser's build (router-internals.build.test.ts feeds them the installed
 * package's files). Upgrading: run that test, re-read the patched lines, update the lists below.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * React Router's package points every import at its development build; the production build beside it
 * leaves out the development warnings (0.6 KB brotli in the browser). The browser's build takes it; the
 * server keeps the package's choice.
 */
export function productionReactRouter(productionDir: string) {
  const entries = [
    { find: /^react-router$/, file: "index.mjs" },
    { find: /^react-router\/dom$/, file: "dom-export.mjs" },
  ];
  return entries.map(({ find, file }) => {
    const replacement = path.join(productionDir, file);
    if (!fs.existsSync(replacement)) throw new Error(`React Router's production build has no ${replacement}`);
    return { find, replacement };
  });
}

/**
 * React Router's components that this app never renders (`NavLink`, `ScrollRestoration`, …) are kept in the
 * browser's build otherwise: each is made by a call (`React.forwardRef`) and given a `displayName` after,
 * which the bundler must assume do something. In React Router's production build only, those calls are
 * marked pure and the names (read by developer tools alone) left out, so an unused component goes with its
 * helpers (ADR 48). Used ones are untouched. These are every line each pattern changes in React Router 7.18.
 */
export const expectedPatches = {
  displayNames: [
    "DataRouterContext",
    "DataRouterStateContext",
    "ViewTransitionContext",
    "FetchersContext",
    "AwaitContext",
    "NavigationContext",
    "LocationContext",
    "RouteContext",
    "RouteErrorContext",
    "FrameworkContext",
    "HistoryRouter",
    "Link",
    "NavLink",
    "Form",
    "ScrollRestoration",
  ],
  forwardRefs: ["Link", "NavLink", "Form", "FetcherForm2"],
};

export type Patched = { code: string; displayNames: string[]; forwardRefs: string[] };

/** One module of React Router's production build with both patterns applied, and what each changed. */
export function patchRouterModule(code: string): Patched {
  const displayNames: string[] = [];
  const forwardRefs: string[] = [];
  const patched = code
    .replace(/^(\w+)\.displayName = "\w+";$/gm, (_, name: string) => {
      displayNames.push(name);
      return "";
    })
    .replace(/(\w+) = (React\d*)\.forwardRef\(/g, (_, name: string, react: string) => {
      forwardRefs.push(name);
      return `${name} = /* @__PURE__ */ ${react}.forwardRef(`;
    });
  return { code: patched, displayNames, forwardRefs };
}

/** Throws unless the patches changed exactly the lines `expectedPatches` lists, over all the modules. */
export function checkPatches(modules: Pick<Patched, "displayNames" | "forwardRefs">[]) {
  for (const key of ["displayNames", "forwardRefs"] as const) {
    const seen = modules.flatMap((module) => module[key]).sort();
    const expected = [...expectedPatches[key]].sort();
    if (JSON.stringify(seen) !== JSON.stringify(expected))
      throw new Error(
        `React Router's production build changed: the ${key} patch (app/lib/router-internals.build.ts) ` +
          `expected ${expected.join(", ")}; found ${seen.join(", ") || "none"}`,
      );
  }
}

/** The patches as a plugin of the browser's build (`productionDir`: React Router's production build). */
export function droppableRouterComponents(productionDir: string): Plugin {
  let patched: Patched[] = [];
  return {
    name: "droppable-router-components",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    buildStart() {
      patched = [];
    },
    transform(code, id) {
      if (!id.startsWith(productionDir)) return undefined;
      const result = patchRouterModule(code);
      patched.push(result);
      return result.code;
    },
    buildEnd(error) {
      if (!error) checkPatches(patched);
    },
  };
}
