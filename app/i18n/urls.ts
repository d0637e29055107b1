import { isLanguage, type Language, languages } from "./config";

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

/**
 * A path as the router serving `requestPath` reads it: under `/es/` React Router is given the basename `/es`
 * and prefixes every path a loader or action redirects to, so a path of that language loses its segment
 * (`/es/account` → `/account`) and is not prefixed twice; a path of the unprefixed site is left as it is.
 */
export function routerPath(requestPath: string, path: string): string {
  return pathLanguage(requestPath) ? unprefixedPath(path) : path;
}

/** The four language URLs of a page and its `x-default`, the unprefixed path (hreflang alternates, sitemap). */
export function alternatePaths(pathname: string): { hreflang: Language | "x-default"; path: string }[] {
  const path = unprefixedPath(pathname);
  return [
    ...languages.map((language) => ({ hreflang: language, path: localizedPath(language, path) })),
    { hreflang: "x-default" as const, path },
  ];
}
