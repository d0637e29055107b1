import type { HeadersFunction } from "react-router";

/**
 * The mark a route puts on a page whose content is the same for every reader the page cache groups together
 * (server/page-cache.ts): all visitors alike, or signed-in readers with the same reading settings on a chapter
 * they may all read. The server takes the mark off before the response leaves.
 */
export const SHAREABLE_HEADER = "X-Shareable-Page";

/** For routes whose page depends on nothing personal: `export const headers = shareablePage;`. */
export const shareablePage: HeadersFunction = () => ({ [SHAREABLE_HEADER]: "1" });

/** For routes whose loader decides per request, with `shareableIf`: passes the loader's mark on. */
export const shareableIfLoaderSays: HeadersFunction = ({ loaderHeaders }) =>
  shareableIf(loaderHeaders.get(SHAREABLE_HEADER) === "1");

/** Loader response headers marking the page shareable when `condition` holds. */
export function shareableIf(condition: boolean): Record<string, string> {
  return condition ? { [SHAREABLE_HEADER]: "1" } : {};
}
