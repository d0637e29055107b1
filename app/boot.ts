/**
 * The boot script (ADR 11, ADR 12): a cached file every page loads. It reads the server's hand-off
 * (app/lib/hand-off.ts) into React Router's globals, then, once the browser has painted, imports every
 * module of the page at once (no waterfall) and asks for the site's faces. The entry (entry.client.tsx)
 * registers the route modules and hydrates.
 *
 * Built by Vite as a script of its own (`?worker&url` in app/lib/app-scripts.tsx gives its URL to the
 * server and the browser alike), so it shares no chunk with the app and runs before any of it is fetched.
 */
import { contextDefaults, type HandOff, handOffId } from "./lib/hand-off";

const [first = "{}", ...routeData] = document.getElementById(handOffId)?.textContent?.split("\n") ?? [];
const { context, manifest, chunks, fonts } = JSON.parse(first) as HandOff;
Object.assign(window, {
  __reactRouterManifest: manifest,
  __reactRouterContext: { ...contextDefaults, ...context, stream: new Response(routeData.join("\n")).body },
});

const go = () => {
  for (const module of [...chunks, ...Object.values(manifest.routes).map((route) => route.module)])
    import(/* @vite-ignore */ module);
  if (!document.querySelector(`link[href="${fonts}"]`))
    document.head.append(
      Object.assign(document.createElement("link"), {
        rel: "stylesheet",
        href: fonts,
        onload() {
          try {
            localStorage.fonts = 1;
          } catch {}
        },
      }),
    );
};
const start = () => {
  const Observer = window.PerformanceObserver;
  if (document.visibilityState !== "visible") go();
  else if (Observer?.supportedEntryTypes?.includes("paint"))
    new Observer((_, observer) => {
      observer.disconnect();
      setTimeout(go);
    }).observe({ type: "paint", buffered: true });
  else requestAnimationFrame(() => setTimeout(go));
};

// In development the refresh runtime must be in place before React is (the production build has none).
const runtime = import.meta.env.DEV && manifest.hmr?.runtime;
if (runtime) import(/* @vite-ignore */ runtime).then(start);
else start();
