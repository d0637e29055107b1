import { routerPath } from "~/i18n/urls";

/** Control characters and backslashes: browsers drop the first and read the second as `/` in a Location. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them.
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
const MAX_TARGET = 2048;

/** A path a browser can only resolve on this origin: one leading `/`, never `//` or `/\`. */
function staysOnOrigin(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !UNSAFE.test(path);
}

/**
 * A same-origin path to go to after an action, or the fallback. The target is checked, normalised the way a
 * browser would (`new URL`: dot segments, `%2e%2e`), and the RESULT checked again: `/..//evil.example`
 * normalises to `//evil.example`, which a browser reads as another host.
 */
export function safeRedirectPath(
  target: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  if (typeof target !== "string" || target.length > MAX_TARGET || !staysOnOrigin(target)) return fallback;
  const base = "http://site.invalid";
  try {
    const url = new URL(target, base);
    if (url.origin !== base) return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return staysOnOrigin(path) ? path : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The page a form was sent from (its `Referer`), as a path and query: somewhere on this site to go back to,
 * as the request's router reads a path (without the language segment under a language's URL: i18n/urls.ts).
 */
export function refererPath(request: Request): string | undefined {
  const referer = request.headers.get("referer");
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return `${routerPath(new URL(request.url).pathname, url.pathname)}${url.search}`;
  } catch {
    return undefined;
  }
}

/** `page` with `?redirectTo=target`, or plain `page` when the target is the page's own default. */
export function withRedirect(page: string, target: string, defaultTarget?: string): string {
  if (target === defaultTarget) return page;
  return `${page}?${new URLSearchParams({ redirectTo: target })}`;
}
