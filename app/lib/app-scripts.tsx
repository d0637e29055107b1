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

/**
 * React Router's `<Scripts />`, except that the app's JavaScript starts after the first paint (ADR 11).
 *
 * React Router preloads every module of the page in the head and imports them from an inline module
 * script, so on a slow phone 110 KB of scripts share the connection with the stylesheet and the artwork,
 * and hydration runs before the page is first painted. The page is complete without scripts (links and
 * forms work; reading settings are applied by the head script), so here the hand-off data is written as
 * React Router writes it, and the modules are preloaded and imported once the browser has painted. The
 * site's faces (`stylesheet`) are asked for then too, and the reader's time zone is remembered in a cookie
 * so the server can show dates in it.
 *
 * Same globals, same hand-off: `HydratedRouter` cannot tell the difference. The manifest names the page's
 * own routes only; React Router asks the server for others as links to them appear (lazy route discovery).
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
    context = `window.__reactRouterContext=${framework.serverHandoffString};window.__reactRouterContext.stream=new ReadableStream({start(c){window.__reactRouterContext.streamController=c}}).pipeThrough(new TextEncoderStream());`;
    const routeIds = state.matches.map((match) => match.route.id);
    const routes = Object.fromEntries(routeIds.map((id) => [id, manifest.routes[id]]));
    boot = `${manifest.hmr?.runtime ? `import ${json(manifest.hmr.runtime)};` : ""}
const M=window.__reactRouterManifest=${json({ ...manifest, sri: undefined, routes })};
const ids=${json(routeIds)},R=ids.map(id=>M.routes[id]);let started=0;
const start=()=>{if(started++)return;
const f=${json(stylesheet)};if(!document.querySelector("link[href='"+f+"']")){const s=document.createElement("link");s.rel="stylesheet";s.href=f;
s.onload=()=>{try{localStorage.setItem("fonts","1")}catch{}};document.head.append(s)}
for(const href of new Set([M.entry.module,...M.entry.imports,...R.flatMap(r=>[r.module,...r.imports])])){const l=document.createElement("link");l.rel="modulepreload";l.href=href;document.head.append(l)}
Promise.all(R.map(r=>import(r.module))).then(m=>{window.__reactRouterRouteModules=Object.fromEntries(ids.map((id,i)=>[id,m[i]]));import(M.entry.module)});
try{const z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&!document.cookie.includes("tz="+encodeURIComponent(z)))document.cookie="tz="+encodeURIComponent(z)+"; Path=/; Max-Age=31536000; SameSite=Lax"}catch{}};
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
