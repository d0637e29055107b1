import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { i18nCatalogues } from "./app/i18n/vite-plugin.ts";

/**
 * The browser's code in a few files (ADR 11): brotli compresses modules better together than apart, and a
 * page asks for fewer files. React, React DOM and React Router are one file every page needs; the layout
 * and the small modules it and the reader share are another, with the browser's entry in it (its file, which
 * the boot script imports by the URL React Router's manifest gives, is then a one-line import: 0.2 KB less
 * than a file of its own, ADR 22). Route modules and lazy parts stay apart.
 */
const framework = /node_modules\/(react|react-dom|react-router|scheduler)\//;
const layout = new RegExp(
  [
    "/app/(root|entry\\.client)\\.",
    "/app/ui/(button|document-title|icons|lazy-component|lazy-dialog|link|page-meta|spinner|use-format)\\.",
    "/app/lib/(app-scripts|document-only|format|nonce|route-theme|router-internals)\\.",
    "/app/i18n/(react|translate|config|catalogues\\.client)\\.",
    "/app/features/layout/(preference-controls|side-menu)\\.",
    "/app/features/reader/(storage|progress|use-sync-on-sign-in)\\.",
    "/app/features/reading-settings/settings\\.",
  ].join("|"),
);

/**
 * React Router's package points every import at its development build; the production build beside it
 * leaves out the development warnings (0.6 KB brotli in the browser). The browser's build takes it; the
 * server keeps the package's choice.
 */
const reactRouterProduction = path.resolve("node_modules/react-router/dist/production");
const productionReactRouter = [
  { find: /^react-router$/, replacement: `${reactRouterProduction}/index.mjs` },
  { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}/dom-export.mjs` },
];

/**
 * React Router's components that this app never renders (`NavLink`, `ScrollRestoration`, …) are kept in the
 * browser's build otherwise: each is made by a call (`React.forwardRef`) and given a `displayName` after,
 * which the bundler must assume do something. In React Router's production build only, those calls are
 * marked pure and the names (read by developer tools alone) left out, so an unused component goes with its
 * helpers (ADR 48). Used ones are untouched.
 */
function droppableRouterComponents(): Plugin {
  return {
    name: "droppable-router-components",
    apply: "build",
    transform(code, id) {
      if (!id.startsWith(reactRouterProduction)) return undefined;
      return code
        .replace(/^\w+\.displayName = "\w+";$/gm, "")
        .replace(/= (React\d*)\.forwardRef\(/g, "= /* @__PURE__ */ $1.forwardRef(");
    },
  };
}

export default defineConfig(({ isSsrBuild, command }) => ({
  build: isSsrBuild
    ? // The server build's entry is our HTTP app (server/app.ts), which imports the React Router build.
      { rollupOptions: { input: "./server/app.ts" } }
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
    ...(command === "build" && !isSsrBuild ? { alias: productionReactRouter } : {}),
  },
  plugins: [tailwindcss(), reactRouter(), i18nCatalogues(), droppableRouterComponents()],
}));
