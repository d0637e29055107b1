import { useContext, useEffect } from "react";
import { useDocumentOnly } from "./document-only";
import {
  DataRouterContext,
  DataRouterStateContext,
  FrameworkContext,
  handOffId,
  writeHandOff,
} from "./router-internals";

let hydrated = false;

/**
 * React Router's `<Scripts />`, except that the app's JavaScript starts after the first paint (ADR 11) and
 * the hand-off is one data block read by a cached boot script (ADR 13, ADR 22).
 *
 * React Router preloads every module of the page in the head and imports them from an inline module
 * script, so on a slow phone 110 KB of scripts share the connection with the stylesheet and the artwork,
 * and hydration runs before the page is first painted. The page is complete without scripts (links and
 * forms work; reading settings are applied by the head script), so here the server writes what React
 * Router hands over (its context, the manifest of the page's routes, the route data) as data. Once the
 * browser has painted the page, the head script (app/lib/head-script.ts) imports the boot script (app/boot.ts), which
 * sets React Router's globals from it and imports every module of the page at once. The entry
 * (entry.client.tsx) registers the route modules and hydrates.
 *
 * Same globals, same data: `HydratedRouter` cannot tell the difference. The manifest names the page's own
 * routes only; React Router asks the server for others as links to them appear (lazy route discovery).
 * How React Router's internals are read and written is app/lib/router-internals.ts's business.
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
  // Written by the server only (the browser keeps the server's elements as they are), so the bundler
  // leaves this code out of the browser's build.
  const handOff = (import.meta.env.SSR && writeHandOff({ framework, router, state }, routeData)) || " ";
  return (
    <script
      type="application/json"
      id={handOffId}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: handOff }}
    />
  );
}
