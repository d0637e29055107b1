/** What the HTTP server hands every loader and action (see server/app.ts). */
export type RequestContext = { cspNonce: string; requestId: string; ip: string };

declare module "react-router" {
  interface AppLoadContext extends RequestContext {}
}
