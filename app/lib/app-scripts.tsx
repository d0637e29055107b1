import { useContext, useEffect } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
  matchRoutes,
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

/**
 * React Router's `<Scripts />`, except that the app's JavaScript starts after the first paint (ADR 11).
 *
 * React Router preloads every module of the page in the head and imports them from an inline module
 * script, so on a slow phone 110 KB of scripts share the connection with the stylesheet and the artwork,
 * and hydration runs before the page is first painted. The page is complete without scripts (links and
 * forms work; reading settings are applied by the head script), so here the hand-off data is written as
 * React Router writes it, and the modules are preloaded and imported once the browser has painted.
 * Same globals, same hand-off: `HydratedRouter` cannot tell the difference.
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
  if (router?.static && framework.serverHandoffString && state) {
    const { manifest } = framework;
    if (framework.renderMeta) framework.renderMeta.didRenderScripts = true;
    context = `window.__reactRouterContext=${framework.serverHandoffString};window.__reactRouterContext.stream=new ReadableStream({start(c){window.__reactRouterContext.streamController=c}}).pipeThrough(new TextEncoderStream());`;
    const routeIds = state.matches.map((match) => match.route.id);
    const modules = routeIds.map((id) => manifest.routes[id]?.module as string);
    const preloads = [
      ...new Set([
        manifest.entry.module,
        ...manifest.entry.imports,
        ...routeIds.flatMap((id) => [
          manifest.routes[id]?.module ?? "",
          ...(manifest.routes[id]?.imports ?? []),
        ]),
      ]),
    ];
    boot = `${manifest.hmr?.runtime ? `import ${json(manifest.hmr.runtime)};` : ""}
window.__reactRouterManifest=${json(partialManifest(manifest, router.router, state.location.pathname))};
let started=0;const start=()=>{if(started++)return;
const f=${json(stylesheet)};if(!document.querySelector("link[href='"+f+"']")){const s=document.createElement("link");s.rel="stylesheet";s.href=f;
s.onload=()=>{try{localStorage.setItem("fonts","1")}catch{}};document.head.append(s)}
for(const href of ${json(preloads)}){const l=document.createElement("link");l.rel="modulepreload";l.href=href;document.head.append(l)}
Promise.all(${json(modules)}.map(m=>import(m))).then(m=>{window.__reactRouterRouteModules={${routeIds.map((id, i) => `${json(id)}:m[${i}]`).join(",")}};import(${json(manifest.entry.module)})})};
const P=window.PerformanceObserver;
if(document.visibilityState!=="visible")start();
else if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.includes("paint"))new P((_,o)=>{o.disconnect();setTimeout(start)}).observe({type:"paint",buffered:true});
else requestAnimationFrame(()=>setTimeout(start));`;
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

type Manifest = NonNullable<React.ContextType<typeof FrameworkContext>>["manifest"];
type Router = NonNullable<React.ContextType<typeof DataRouterContext>>["router"];

/**
 * The routes a page needs to start: the matched ones and those of the URL's parents, as React Router's
 * lazy route discovery expects (it asks the server for others when a link needs them).
 */
function partialManifest({ sri: _sri, ...manifest }: Manifest, router: Router, pathname: string) {
  const ids = new Set(router.state.matches.map((match) => match.route.id));
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  for (; segments.length > 0; segments.pop()) paths.push(`/${segments.join("/")}`);
  for (const path of paths)
    for (const match of matchRoutes(router.routes, path, router.basename) ?? []) ids.add(match.route.id);
  return { ...manifest, routes: Object.fromEntries([...ids].map((id) => [id, manifest.routes[id]])) };
}
