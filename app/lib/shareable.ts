import type { HeadersFunction } from "react-router";

/**
 * The mark a route puts on a page whose content is the same for every reader the page cache groups together
 * (server/page-cache.ts): all visitors alike, or signed-in readers with the same reading settings on a chapter
 * they may all read. The server takes the mark off before the response leaves.
 */
export const SHAREABLE_HEADER = "X-Shareable-Page";

/**
 * The mark of a shareable page that shows no date or time: the page cache keeps one copy of it for every time
 * zone, rendered in none (ADR 62). Without it a page is kept per time zone, as a page that shows a date must
 * be. The server takes it off too.
 */
export const TIMELESS_HEADER = "X-Timeless-Page";

/** For routes whose page depends on nothing personal: `export const headers = shareablePage;`. */
export const shareablePage: HeadersFunction = () => ({ [SHAREABLE_HEADER]: "1" });

/** The same for a page that also shows no date or time (no `useFormat().date`, no release label). */
export const timelessShareablePage: HeadersFunction = () => ({
  [SHAREABLE_HEADER]: "1",
  [TIMELESS_HEADER]: "1",
});

/** For routes whose loader decides per request, with `shareableIf`: passes the loader's marks on. */
export const shareableIfLoaderSays: HeadersFunction = ({ loaderHeaders }) =>
  shareableIf(loaderHeaders.get(SHAREABLE_HEADER) === "1", {
    timeless: loaderHeaders.get(TIMELESS_HEADER) === "1",
  });

/**
 * Loader response headers marking the page shareable when `condition` holds, and timeless when it shows no
 * date or time this time (a chapter the reader may read shows none; one waiting for its release shows when).
 */
export function shareableIf(condition: boolean, { timeless = false } = {}): Record<string, string> {
  if (!condition) return {};
  return timeless ? { [SHAREABLE_HEADER]: "1", [TIMELESS_HEADER]: "1" } : { [SHAREABLE_HEADER]: "1" };
}

/**
 * For a signed-in reader's own page that shows only their records, the content and the time (ADR 53): the
 * page cache keeps it for that reader's session alone (its route's rule `share: "own"` in app/routes.ts)
 * until anything of theirs changes. Headers the loader or an action set are passed on (a kept page is only
 * ever a GET's, and one setting a cookie is never kept).
 */
export const keptForItsReader: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  for (const [name, value] of actionHeaders) headers.append(name, value);
  headers.set(SHAREABLE_HEADER, "1");
  return headers;
};
