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
