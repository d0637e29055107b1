/**
 * A same-origin path to go to after an action, or the fallback. `//evil.example`, `/\evil.example`
 * and absolute URLs to other origins are refused (parsed with `new URL`, as browsers would).
 */
export function safeRedirectPath(
  target: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  if (typeof target !== "string" || !target.startsWith("/")) return fallback;
  const base = "http://site.invalid";
  try {
    const url = new URL(target, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** The page a form was sent from (its `Referer`), as a path and query: somewhere on this site to go back to. */
export function refererPath(request: Request): string | undefined {
  const referer = request.headers.get("referer");
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}
