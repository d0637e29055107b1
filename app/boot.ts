/**
 * The boot script (ADR 11, ADR 13): a cached file the head script (app/lib/head-script.ts) imports once the page has
 * been painted. When the page has been read, it sets React Router's globals from the server's hand-off
 * (app/lib/router-internals.ts), asks for every module of the page at once (no waterfall) and runs them one
 * a task. The entry (entry.client.tsx) registers the route modules and hydrates.
 *
 * It also remembers the reader's time zone: here rather than in the head script, because the page's HTML
 * comes with every page and this file once (ADR 55).
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
// Every file is asked for at once, then run one a task: the shared chunks (React first: `frameworkFirst`),
// the routes, and the entry (the first chunk, which hydrates) last. One import of them all ran React, the
// app and the routes in one task of 70-90 ms on a phone (ADR 55).
const [entry, ...shared] = chunks;
const modules = [
  ...shared,
  ...Object.values(manifest.routes).map((route) => route.module),
  ...(entry ? [entry] : []),
];
for (const href of modules)
  document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
for (const module of modules) {
  await import(/* @vite-ignore */ module);
  await new Promise((next) => setTimeout(next));
}

// The reader's time zone, in the `tz` cookie, so the server can show dates in it (lib/preferences.server.ts):
// from Temporal, which costs nothing, or where it is missing from `Intl.DateTimeFormat` when the browser is
// idle, as its first call loads the locale data (ADR 37). Last, as nothing here may keep the app from
// starting (reading cookies throws in a sandboxed frame).
const rememberTimeZone = (zone: string) => {
  const cookie = `tz=${encodeURIComponent(zone)}`;
  if (!document.cookie.includes(cookie))
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the site serves.
    document.cookie = `${cookie}; Path=/; Max-Age=31536000; SameSite=Lax`;
};
const { Temporal } = globalThis as { Temporal?: { Now: { timeZoneId(): string } } };
if (Temporal) rememberTimeZone(Temporal.Now.timeZoneId());
else
  (self.requestIdleCallback ?? setTimeout)(() =>
    rememberTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone),
  );

// The offline worker (public/sw.js, ADR 96), once the page has loaded: it asks for nothing the page needs first.
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
