import { boundedMemo } from "./bounded-memo";

/**
 * React Router hands each loader its own copy of the request (it strips its `index` and `_routes` parameters
 * into a new `Request`), so a per-request memo keyed by the `Request` object (a `WeakMap`) misses between the
 * root's loader and the route's: a signed-in page looked its session up twice. The server marks every request it
 * hands to React Router with this header (server/react-router.ts), overwriting any the client sent; the copies
 * keep it, so loaders of one request can share work by it. Only for GET and HEAD: a POST's loaders run after
 * its action, which may have changed what they read.
 */
export const REQUEST_SCOPE_HEADER = "x-cc-request-scope";

let lastScope = 0;

/** A new scope for one request (unique in this process). */
export function newRequestScope(): string {
  lastScope = (lastScope + 1) % Number.MAX_SAFE_INTEGER;
  return String(lastScope);
}

/** The scope a request's loaders share, or undefined for a write or a request the server did not mark. */
export function requestScope(request: Request): string | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  return request.headers.get(REQUEST_SCOPE_HEADER) ?? undefined;
}

/**
 * A memo of promises for the loaders of one request, by scope and a key of the caller's (which must name
 * everything the answer depends on: the session token, say). Bounded: a request's loaders start within
 * moments of each other, so the newest few hundred scopes are enough; an older one is asked again.
 */
export function scopedMemo<T>(limit = 512) {
  const memo = boundedMemo<Promise<T>>(limit);
  return (scope: string, key: string, make: () => Promise<T>): Promise<T> => memo(`${scope}\n${key}`, make);
}
