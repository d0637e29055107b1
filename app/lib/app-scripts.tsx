import { useContext, useEffect } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";

/** As React Router's own escaping of data put in a script: nothing in it can close the script element. */
const escapes: Record<string, string> = {
  "&": "\\u0026",
  ">": "\\u003e",
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};
const json = (value: unknown) => JSON.stringify(value).replace(/[&><\u2028\u2029]/g, (c) => escapes[c] ?? c);

let hydrated = false;

const withoutFalse = (entries: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== false));

/*
 * The hand-off as React Router writes it, less what the browser would read as the default anyway: flags that
 * are off (`future`), route traits that are false, empty stylesheet lists, and the route's chunks (`imports`,
 * which only serve to preload a route before it is shown: these are shown, and imported by the boot script).
 */
function compactContext(handoff: string): string {
  const context = withoutFalse(JSON.parse(handoff));
  if (context.future) context.future = withoutFalse(context.future);
  return json(context);
}

function compactRoute({ imports, css, ...route }: { imports?: string[]; css?: string[] }) {
  return { ...withoutFalse(route), ...(css?.length ? { css } : {}) };
}

/**
 * React Router's `<Scripts />`, except that the app's JavaScript starts after the first paint (ADR 11).
 *
 * React Router preloads every module of the page in the head and imports them from an inline module
 * script, so on a slow phone 110 KB of scripts share the connection with the stylesheet and the artwork,
 * and hydration runs before the page is first painted. The page is complete without scripts (links and
 * forms work; reading settings are applied by the head script), so here the hand-off data is written as
 * React Router writes it and, once the browser has painted, every module of the page is imported at once
 * (no waterfall) and the site's faces (`stylesheet`) are asked for. The entry (entry.client.tsx) registers
 * the route modules and hydrates.
 *
 * Same globals, same hand-off: `HydratedRouter` cannot tell the difference. The manifest names the page's
 * own routes only; React Router asks the server for others as links to them appear (lazy route discovery).
 * What runs here is kept short: it is in every page's HTML (ADR 12).
 */
export function AppScripts({ nonce, stylesheet }: { nonce?: string; stylesheet: string }) {
  const framework = useContext(FrameworkContext);
  const router = useContext(DataRouterContext);
  const state = useContext(DataRouterStateContext);
  useEffect(() => {
    hydrated = true;
  }, []);
  if (hydrated || !framework) return null;
  let context = " ";
  let boot = " ";
  // Written by the server only (the browser keeps the server's script elements as they are), so the
  // bundler leaves this code out of the browser's build.
  if (import.meta.env.SSR && router?.static && framework.serverHandoffString && state) {
    const { manifest } = framework;
    if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;
    context = `(window.__reactRouterContext=${compactContext(framework.serverHandoffString)}).stream=new ReadableStream({start(c){window.__reactRouterContext.streamController=c}}).pipeThrough(new TextEncoderStream())`;
    const shown = state.matches.flatMap(({ route }) => manifest.routes[route.id] ?? []);
    // The entry and every chunk it or the routes import; the routes' own modules are read from the manifest.
    const entryChunks = new Set([
      manifest.entry.module,
      ...manifest.entry.imports,
      ...shown.flatMap((route) => route.imports ?? []),
    ]);
    // The browser's React Router reads the routes and the version (for route discovery) only.
    const clientManifest = {
      routes: Object.fromEntries(shown.map((route) => [route.id, compactRoute(route)])),
      version: manifest.version,
      ...(manifest.hmr ? { hmr: manifest.hmr } : {}),
    };
    boot = `${manifest.hmr?.runtime ? `import ${json(manifest.hmr.runtime)};` : ""}window.__reactRouterManifest=${json(clientManifest)};
const go=()=>{for(const m of [...${json([...entryChunks])},...Object.values(window.__reactRouterManifest.routes).map(r=>r.module)])import(m);const f=${json(stylesheet)};
if(!document.querySelector("link[href='"+f+"']"))document.head.append(Object.assign(document.createElement("link"),{rel:"stylesheet",href:f,onload(){try{localStorage.fonts=1}catch{}}}))},
P=window.PerformanceObserver;
if(document.visibilityState!="visible")go();
else if(P?.supportedEntryTypes?.includes("paint"))new P((_,o)=>{o.disconnect();setTimeout(go)}).observe({type:"paint",buffered:true});
else requestAnimationFrame(()=>setTimeout(go))`;
  }
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: context }} />
      <script
        nonce={nonce}
        type="module"
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: boot }}
      />
    </>
  );
}
