import fs from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { i18nCatalogues } from "./app/i18n/vite-plugin.ts";
import { modulesPattern } from "./app/lib/chunk-groups.ts";
import { inlineScripts } from "./app/lib/inline-script.ts";
import { droppableRouterComponents, productionReactRouter } from "./app/lib/router-internals.build.ts";

/**
 * The browser's code in a few files (ADR 11): brotli compresses modules better together than apart, and a
 * page asks for fewer files. React, React DOM and React Router are one file every page needs; the layout
 * and the small modules it and the reader share are another, with the browser's entry in it (its file, which
 * the boot script imports by the URL React Router's manifest gives, is then a one-line import: 0.2 KB less
 * than a file of its own, ADR 22). Route modules and lazy parts stay apart.
 */
const framework = /node_modules\/(react|react-dom|react-router|scheduler)\//;
// Each must be a module of app/ (a renamed one fails the build, lib/chunk-groups.ts).
const layout = modulesPattern(path.resolve(), [
  "app/root",
  "app/entry.client",
  "app/ui/button",
  "app/ui/document-title",
  "app/ui/icons",
  "app/ui/lazy-component",
  "app/ui/lazy-dialog",
  "app/ui/link",
  "app/ui/page-meta",
  "app/ui/spinner",
  "app/ui/use-format",
  "app/lib/app-scripts",
  "app/lib/document-only",
  "app/lib/format",
  "app/lib/nonce",
  "app/lib/route-theme",
  "app/lib/router-internals",
  "app/i18n/react",
  "app/i18n/translate",
  "app/i18n/config",
  "app/i18n/catalogues.client",
  "app/features/layout/preference-controls",
  "app/features/layout/side-menu",
  "app/features/reader/blocks",
  "app/features/reader/chapter-body",
  "app/features/reader/storage",
  "app/features/reader/progress",
  "app/features/reader/use-sync-on-sign-in",
  "app/features/reading-settings/settings",
]);

/**
 * React Router's production build, which the browser's build takes (app/lib/router-internals.build.ts). Its
 * real path: the bundler names modules by theirs, so the patches find it in a linked node_modules too.
 */
const reactRouterProduction = fs.realpathSync(path.resolve("node_modules/react-router/dist/production"));

/**
 * Vite wraps each dynamic import in a helper that first preloads the chunk's imports and stylesheets. The
 * browser's build asks for neither (`modulePreload: false` below; stylesheets are the root's, which lint
 * checks), so every wrapper is handed an empty list: the helper's 0.7 KB (brotli) on every page did nothing.
 * Its module is given as the plain call it amounts to.
 */
const plainDynamicImports: Plugin = {
  name: "plain-dynamic-imports",
  enforce: "pre",
  apply: "build",
  load(id) {
    if (id === "\0vite/preload-helper.js") return "export const __vitePreload = (load) => load();";
  },
};

// No report of the slowest plugins on every build: they are known (Terser, ADR 48; React Router's own).
const checks = { pluginTimings: false };

export default defineConfig(({ isSsrBuild, command }) => ({
  build: isSsrBuild
    ? // The server build's entry is our HTTP app (server/app.ts), which imports the React Router build.
      { rollupOptions: { input: "./server/app.ts", checks } }
    : {
        // Terser, three passes: 0.2 KB (brotli) less on every page than the default minifier, for about 9 s
        // more per build (ADR 48).
        // No lists of a dynamic chunk's own imports to preload with it (0.5 KB brotli on every page): the boot
        // script preloads what a page starts with, and the rest (the side menu, another language's
        // catalogue) is asked for ahead of use.
        modulePreload: false,
        minify: "terser",
        terserOptions: { module: true, ecma: 2020, compress: { passes: 3 }, format: { comments: false } },
        rollupOptions: {
          checks,
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", priority: 2, test: framework },
                { name: "app", priority: 1, test: layout },
              ],
            },
          },
        },
      },
  // The boot script (app/boot.ts) is built as Vite builds a worker: one file of its own, with its URL known
  // to both builds. It is a module (the head script imports it); comments Vite reads (`@vite-ignore`) are
  // left out of the file.
  worker: { format: "es", rolldownOptions: { output: { comments: false } } },
  resolve: {
    tsconfigPaths: true,
    ...(command === "build" && !isSsrBuild ? { alias: productionReactRouter(reactRouterProduction) } : {}),
  },
  plugins: [
    tailwindcss(),
    reactRouter(),
    i18nCatalogues(),
    inlineScripts(),
    droppableRouterComponents(reactRouterProduction),
    plainDynamicImports,
  ],
}));
