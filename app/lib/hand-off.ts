/**
 * The hand-off from the server's render to the browser (ADR 13): one JSON data block at the end of the body,
 * read by the boot script (app/boot.ts). Its first line is the boot's own object (`HandOff`); the lines after
 * it are React Router's route data as React Router encodes it (turbo-stream text), handed to React Router
 * as its stream. A data block is not run, so the route data is written once, unescaped, instead of as a
 * string inside the scripts React Router would write.
 */
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
