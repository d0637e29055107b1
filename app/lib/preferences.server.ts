import { defaultLanguage, isLanguage, type Language, negotiateLanguage } from "~/i18n/config";
import { pathLanguage } from "~/i18n/urls";

export type Theme = "light" | "dark";

/** The visitor's display preferences, from cookies (set by the /preferences action and the head script). */
export type Preferences = {
  language: Language;
  /** Absent until chosen: the page then follows `prefers-color-scheme`. */
  theme?: Theme;
  timeZone: string;
};

export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    try {
      cookies.set(name, decodeURIComponent(part.slice(index + 1).trim()));
    } catch {
      // A malformed value is ignored like a missing one.
    }
  }
  return cookies;
}

export function readCookies(request: Request): Map<string, string> {
  return parseCookieHeader(request.headers.get("Cookie"));
}

/**
 * Time zone spellings seen, by lower case (zone names match case-insensitively), to the zone Intl resolves
 * them to, or null when invalid. Resolving builds a formatter, too slow for every request; a page is keyed
 * and rendered in the resolved zone, so `europe/PARIS` is the page of `Europe/Paris`, not another one.
 */
const resolvedTimeZones = new Map<string, string | null>();
/** About 600 zone names and aliases exist; the bound only keeps invented spellings from growing the map. */
const MAX_RESOLVED_TIME_ZONES = 4000;

/** The canonical name of a time zone (`Europe/Paris` for `europe/paris`), or undefined when not one. */
export function canonicalTimeZone(value: string | undefined): string | undefined {
  if (!value || value.length > 64) return undefined;
  const known = resolvedTimeZones.get(value);
  if (known !== undefined) return known ?? undefined;
  const lower = value.toLowerCase();
  let resolved = resolvedTimeZones.get(lower);
  if (resolved === undefined) {
    try {
      resolved = new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      resolved = null;
    }
    if (resolvedTimeZones.size < MAX_RESOLVED_TIME_ZONES) resolvedTimeZones.set(lower, resolved);
  }
  // The exact spelling too, so the usual one (as browsers send it) costs one lookup.
  if (resolvedTimeZones.size < MAX_RESOLVED_TIME_ZONES) resolvedTimeZones.set(value, resolved);
  return resolved ?? undefined;
}

/**
 * The preferences a page is rendered in, from the request's cookies and Accept-Language; a language's URL
 * (`/es/…`, i18n/urls.ts) names its language before either.
 */
export function preferencesFromCookies(
  cookies: Map<string, string>,
  acceptLanguage: string | null | undefined,
  pathname?: string,
): Preferences {
  const lang = (pathname && pathLanguage(pathname)) || cookies.get("lang");
  const theme = cookies.get("theme");
  const tz = cookies.get("tz");
  return {
    language: isLanguage(lang) ? lang : negotiateLanguage(acceptLanguage),
    timeZone: canonicalTimeZone(tz) ?? "UTC",
    ...(theme === "light" || theme === "dark" ? { theme } : {}),
  };
}

export function getPreferences(request: Request): Preferences {
  return preferencesFromCookies(
    readCookies(request),
    request.headers.get("Accept-Language"),
    new URL(request.url).pathname,
  );
}

/** A year's cookie for a choice; `maxAge` 0 forgets it. */
export function preferenceCookie(
  name: "lang" | "theme",
  value: string,
  secure: boolean,
  maxAge = 31_536_000,
): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export { defaultLanguage };
