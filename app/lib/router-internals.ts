/**
 * Every part of React Router that is not its public API, in one place: the `UNSAFE_` exports, the
 * `window.__reactRouter*` globals the browser's router starts from, the stream its server render hands its
 * route data over in, and that data's text (turbo-stream). Nothing else in `app/` touches them (Biome's
 * `noRestrictedImports` for `UNSAFE_` names, `router-internals.test.ts` for the rest).
 *
 * The hand-off (ADR 13, ADR 22): one JSON data block at the end of the body, read by the boot script
 * (app/boot.ts) after the first paint. Its first line is the boot's own object (`HandOff`); the lines after
 * it are React Router's route data as React Router encodes it, handed back to React Router as its stream. A
 * data block is not run, so the route data is written once, unescaped, instead of as a string inside the
 * scripts React Router would write.
 *
 * Upgrade checklist (react-router is pinned; re-check all of this when bumping it):
 * 1. `npm run test:unit`: `router-internals.test.ts` asserts every name and field below.
 * 2. Re-read `Scripts` and `StreamTransfer` in `react-router/dist/development` against `writeHandOff` and
 *    `takeRouteData`: which context fields `Scripts` reads, what it writes into `__reactRouterContext`
 *    (`stream`), and that `StreamTransfer` writes nothing once `serverHandoffStream` is cleared.
 * 3. Re-read `HydratedRouter` (`react-router/dom`) for the globals it reads at start:
 *    `__reactRouterContext`, `__reactRouterManifest`, `__reactRouterRouteModules`.
 * 4. `contextDefaults` against the context the server writes (react-router.config.ts, `future` flags).
 * 5. `router-internals.build.test.ts`: the build's patches to React Router's production build
 *    (router-internals.build.ts, ADR 48) list every line they change; the build fails on any difference.
 * 6. The e2e specs that hydrate (first-paint, reader, titles) and `npm run bench:weight` (the chapter
 *    page's JavaScript and HTML).
 */
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FrameworkContext,
  UNSAFE_useScrollRestoration,
} from "react-router";

/** React Router's `<ScrollRestoration>` without its inline script (ADR 11). */
export const useScrollRestoration = UNSAFE_useScrollRestoration;
export const FrameworkContext = UNSAFE_FrameworkContext;
export const DataRouterContext = UNSAFE_DataRouterContext;
export const DataRouterStateContext = UNSAFE_DataRouterStateContext;

export const handOffId = "hand-off";

export type ClientManifest = {
  routes: Record<string, { module: string } & Record<string, unknown>>;
  version: string;
  hmr?: { runtime?: string };
};

export type HandOff = {
  /** React Router's context where it differs from `contextDefaults`. */
  context?: Record<string, unknown>;
  /** React Router's manifest: the page's own routes and the build's version (for route discovery). */
  manifest: ClientManifest;
  /** The entry and every chunk it or the page's routes import, fetched together with the route modules. */
  chunks: string[];
};

/**
 * React Router's context as this app's configuration makes it (react-router.config.ts). The server writes
 * only what differs; the boot script starts from these.
 */
export const contextDefaults: Record<string, unknown> = {
  basename: "/",
  future: {},
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  ssr: true,
};

/** Text for a script element: nothing in it can end the element (`</script`, `<!--`). Valid inside JSON. */
export const scriptText = (text: string) => text.replace(/</g, "\\u003c");

type ServerStream = { serverHandoffStream?: ReadableStream<Uint8Array> };

/**
 * React Router's route data for the page, as the text of its stream (turbo-stream), taken before the render
 * so that `ServerRouter` writes no scripts for it (its `StreamTransfer` renders nothing without the
 * stream). No loader here defers data: the stream is complete once the loaders are, so reading it first
 * delays nothing. (A loader that deferred data would hold the page until that data came.)
 */
export async function takeRouteData(routerContext: ServerStream): Promise<string | undefined> {
  const stream = routerContext.serverHandoffStream;
  if (!stream) return undefined;
  routerContext.serverHandoffStream = undefined;
  return await new Response(stream).text();
}

const withoutFalse = (entries: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== false));

/**
 * React Router's context less what the boot script starts from anyway: flags that are off (`future`) and
 * the values this app's configuration gives (`contextDefaults`).
 */
function contextDifferences(handoff: string): Record<string, unknown> | undefined {
  const context = withoutFalse(JSON.parse(handoff));
  if (context.future) context.future = withoutFalse(context.future);
  const differences = Object.entries(context).filter(
    ([key, value]) => JSON.stringify(value) !== JSON.stringify(contextDefaults[key]),
  );
  return differences.length ? Object.fromEntries(differences) : undefined;
}

type ManifestRoute = { id: string; module: string; imports?: string[]; css?: string[] };

/**
 * A route as the browser's React Router reads it, less its id (its key: the boot script puts it back), traits
 * that are false, empty stylesheet lists and the route's chunks (`imports`, which only serve to preload a
 * route before it is shown: these are shown, and the boot script imports their chunks).
 */
function compactRoute({ id, imports, css, ...route }: ManifestRoute) {
  return { ...withoutFalse(route), ...(css?.length ? { css } : {}) };
}

/** What the server's render reads from React Router's three `UNSAFE_` contexts. */
export type RenderContexts = {
  framework:
    | {
        manifest: {
          routes: Record<string, ManifestRoute | undefined>;
          entry: { module: string; imports: string[] };
          version: string;
          hmr?: { runtime?: string };
        };
        serverHandoffString?: string;
        renderMeta?: { didRenderScripts?: boolean };
      }
    | null
    | undefined;
  router: { static: boolean } | null | undefined;
  state: { matches: { route: { id: string } }[] } | null | undefined;
};

/**
 * The boot script runs the chunks one a task in this order (ADR 55). The framework chunk (React, React DOM,
 * React Router: the `framework` group of vite.config.ts) is most of the work and imports none of the others,
 * which import it: run first, it has a task of its own; run after them, it would run inside the first one's.
 */
export function frameworkFirst(chunks: string[]) {
  const isFramework = (chunk: string) => /\/framework[\w-]*\.js$/.test(chunk);
  return [...chunks.filter(isFramework), ...chunks.filter((chunk) => !isFramework(chunk))];
}

/**
 * The data block's text for the server's render (`routeData` from `takeRouteData`), or undefined where
 * there is nothing to hand off. Tells React Router its scripts are rendered, as `<Scripts />` does.
 */
export function writeHandOff({ framework, router, state }: RenderContexts, routeData: string | undefined) {
  if (!framework || !router?.static || !framework.serverHandoffString || !state || routeData === undefined)
    return undefined;
  const { manifest } = framework;
  if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;
  const shown = state.matches.flatMap(({ route }) => manifest.routes[route.id] ?? []);
  const boot: HandOff = {
    context: contextDifferences(framework.serverHandoffString),
    manifest: {
      routes: Object.fromEntries(
        shown.map((route) => [route.id, compactRoute(route)]),
      ) as ClientManifest["routes"],
      version: manifest.version,
      ...(manifest.hmr ? { hmr: manifest.hmr } : {}),
    },
    chunks: [
      ...new Set([
        manifest.entry.module,
        ...frameworkFirst([...manifest.entry.imports, ...shown.flatMap((route) => route.imports ?? [])]),
      ]),
    ],
  };
  return scriptText(`${JSON.stringify(boot)}\n${routeData}`);
}

/**
 * The browser's side of `writeHandOff` (the boot script): sets React Router's context and manifest from the
 * data block's text and returns the manifest and the modules to import.
 */
export function readHandOff(text: string): Pick<HandOff, "manifest" | "chunks"> {
  const [first = "{}", ...routeData] = text.split("\n");
  const { context, manifest, chunks } = JSON.parse(first) as HandOff;
  // The server leaves out each route's id, which is its key.
  for (const [id, route] of Object.entries(manifest.routes)) route.id = id;
  Object.assign(window, {
    __reactRouterManifest: manifest,
    __reactRouterContext: { ...contextDefaults, ...context, stream: new Response(routeData.join("\n")).body },
  });
  return { manifest, chunks };
}

/**
 * The page's route modules, registered as React Router's own script would (`__reactRouterRouteModules`),
 * before `HydratedRouter` starts. The boot script imported them already, so they are in flight or loaded.
 */
export async function registerRouteModules() {
  const { routes } = (window as unknown as { __reactRouterManifest: ClientManifest }).__reactRouterManifest;
  const ids = Object.keys(routes);
  const modules = await Promise.all(ids.map((id) => import(/* @vite-ignore */ routes[id]?.module as string)));
  Object.assign(window, {
    __reactRouterRouteModules: Object.fromEntries(ids.map((id, index) => [id, modules[index]])),
  });
}
