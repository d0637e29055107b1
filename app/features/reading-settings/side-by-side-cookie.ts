/**
 * A visitor's side-by-side setting (ADR 97) as a cookie, beside browser storage: the server renders the pairs
 * and keys the kept page by it (app/features/page-cache/viewer.server.ts). Only "on" is written; absent is
 * off. Loaded by the chapter page only when its text does not follow the visitor's setting.
 */
export const SIDE_BY_SIDE_COOKIE = "sbs";

/** Keeps a visitor's side-by-side choice where the server reads it (a year; deleted when off). */
export function storeSideBySideCookie(on: boolean) {
  try {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the site serves.
    document.cookie = on
      ? `${SIDE_BY_SIDE_COOKIE}=on; Path=/; Max-Age=31536000; SameSite=Lax`
      : `${SIDE_BY_SIDE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  } catch {
    // Cookies refused (a sandboxed frame): the setting applies from the account or not at all.
  }
}
