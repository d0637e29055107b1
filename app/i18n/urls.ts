import { isLanguage, type Language } from "./config";

/**
 * Each language's own URL (the decision and its reasons: the language URLs' ADR): `/<lang>/<path>`
 * shows the page in that language whatever the reader's preference; an unprefixed path is the `x-default`,
 * shown in the reader's own language (cookie, account, Accept-Language) as before.
 */

/** The language a path names by its first segment (`/es/chapter/1` → "es"), or null when it names none. */
export function pathLanguage(pathname: string): Language | null {
  const segment = pathname.split("/", 2)[1];
  return isLanguage(segment) ? segment : null;
}

/** The path without its language segment (`/es/chapter/1` → `/chapter/1`, `/es` → `/`). */
export function unprefixedPath(pathname: string): string {
  const language = pathLanguage(pathname);
  if (!language) return pathname;
  return pathname.slice(language.length + 1) || "/";
}

/** The path of a page in a language (`/chapter/1` → `/es/chapter/1`; `/` → `/es`). */
export function localizedPath(language: Language, pathname: string): string {
  const path = unprefixedPath(pathname);
  return path === "/" ? `/${language}` : `/${language}${path}`;
}
