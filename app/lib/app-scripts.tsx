import { useContext, useEffect } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";
import { useDocumentOnly } from "./document-only";
import { type ClientManifest, contextDefaults, type HandOff, handOffId, scriptText } from "./hand-off";

let hydrated = false;

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

/**
 * A route as the browser's React Router reads it, less its id (its key: the boot script puts it back), traits
 * that are false, empty stylesheet lists and the route's chunks (`imports`, which only serve to preload a
 * route before it is shown: these are shown, and the boot script imports their chunks).
 */
function compactRoute({ id, imports, css, ...route }: { id: string; imports?: string[]; css?: string[] }) {
  return { ...withoutFalse(route), ...(css?.length ? { css } : {}) };
}

/**
 * React Router's `<Scripts />`, except that the app's JavaScript starts after the first paint (ADR 11) and
 * the hand-off is one data block read by a cached boot script (ADR 13).
 *
 * React Router preloads every module of the page in the head and imports them from an inline module
 * script, so on a slow phone 110 KB of scripts share the connection with the stylesheet and the artwork,
 * and hydration runs before the page is first painted. The page is complete without scripts (links and
 * forms work; reading settings are applied by the head script), so here the server writes what React
 * Router hands over (its context, the manifest of the page's routes, the route data) as data. Once the
 * browser has painted the page, the head script (app/root.tsx) imports the boot script (app/boot.ts), which
 * sets React Router's globals from it and imports every module of the page at once. The entry
 * (entry.client.tsx) registers the route modules and hydrates.
 *
 * Same globals, same data: `HydratedRouter` cannot tell the difference. The manifest names the page's own
 * routes only; React Router asks the server for others as links to them appear (lazy route discovery).
 */
export function AppScripts() {
  const framework = useContext(FrameworkContext);
  const router = useContext(DataRouterContext);
  const state = useContext(DataRouterStateContext);
  // React Router's route data, taken from its stream by the server's entry (entry.server.tsx).
  const routeData = useDocumentOnly("routeData");
  useEffect(() => {
    hydrated = true;
  }, []);
  if (hydrated || !framework) return null;
  let handOff = " ";
  // Written by the server only (the browser keeps the server's elements as they are), so the bundler
  // leaves this code out of the browser's build.
  if (import.meta.env.SSR && router?.static && framework.serverHandoffString && state && routeData) {
    const { manifest } = framework;
    if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;
    const shown = state.matches.flatMap(({ route }) => manifest.routes[route.id] ?? []);
    const clientManifest: ClientManifest = {
      routes: Object.fromEntries(
        shown.map((route) => [route.id, compactRoute(route)]),
      ) as ClientManifest["routes"],
      version: manifest.version,
      ...(manifest.hmr ? { hmr: manifest.hmr } : {}),
    };
    const boot: HandOff = {
      context: contextDifferences(framework.serverHandoffString),
      manifest: clientManifest,
      chunks: [
        ...new Set([
          manifest.entry.module,
          ...manifest.entry.imports,
          ...shown.flatMap((route) => route.imports ?? []),
        ]),
      ],
    };
    handOff = scriptText(`${JSON.stringify(boot)}\n${routeData}`);
  }
  return (
    <script
      type="application/json"
      id={handOffId}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: handOff }}
    />
  );
}
