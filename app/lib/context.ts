import type { AfterResponse } from "./after-response.server";

/** What the HTTP server hands every loader and action (see server/app.ts). */
export type RequestContext = {
  cspNonce: string;
  requestId: string;
  ip: string;
  /** True for a page load (HTML), false for a client navigation's route data (`.data`). */
  documentRequest: boolean;
  /**
   * Values a loader hands to the server render only, never serialised into the page's hydration data:
   * a chapter's text goes into the HTML once, not twice (see features/reader/chapter-body.tsx).
   */
  documentOnly: Record<string, string>;
  /** Runs a task once the response is written (app/lib/after-response.server.ts). */
  afterResponse: AfterResponse;
};

/** What an operator's log line needs of the request it is about. */
export type RequestMeta = Pick<RequestContext, "requestId" | "ip">;

declare module "react-router" {
  interface AppLoadContext extends RequestContext {}
}
