/**
 * The boot script (ADR 11, ADR 13): a cached file the head script (app/root.tsx) imports once the page has
 * been painted. When the page has been read, it sets React Router's globals from the server's hand-off
 * (app/lib/router-internals.ts) and imports every module of the page at once (no waterfall). The entry
 * (entry.client.tsx) registers the route modules and hydrates.
 *
 * Built as Vite builds a worker (`?worker&url` in app/root.tsx gives its URL to the server and the browser
 * alike): a file of its own that shares no chunk with the app.
 */
import { handOffId, readHandOff } from "./lib/router-internals";

// The browser may paint a long page before it has read all of it: the hand-off is at its end.
if (document.readyState === "loading")
  await new Promise((done) => addEventListener("DOMContentLoaded", done));
const { manifest, chunks } = readHandOff(document.getElementById(handOffId)?.textContent ?? "{}");

// In development the refresh runtime must be in place before React is (the production build has none).
const runtime = import.meta.env.DEV && manifest.hmr?.runtime;
if (runtime) await import(/* @vite-ignore */ runtime);
for (const module of [...chunks, ...Object.values(manifest.routes).map((route) => route.module)])
  import(/* @vite-ignore */ module);
