import { defaultLanguage, isLanguage, type Language, negotiateLanguage } from "~/i18n/config";

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

/** Time zones seen valid; checking one builds a formatter, too slow to repeat on every request. */
const knownTimeZones = new Set<string>();

export function isTimeZone(value: string | undefined): value is string {
  if (!value || value.length > 64) return false;
  if (knownTimeZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    return false;
  }
  // There are about 600 zone names; the bound only keeps invented spellings from growing the set.
  if (knownTimeZones.size < 2000) knownTimeZones.add(value);
  return true;
}

/** The preferences a page is rendered in, from the request's cookies and Accept-Language. */
export function preferencesFromCookies(
  cookies: Map<string, string>,
  acceptLanguage: string | null | undefined,
): Preferences {
  const lang = cookies.get("lang");
  const theme = cookies.get("theme");
  const tz = cookies.get("tz");
  return {
    language: isLanguage(lang) ? lang : negotiateLanguage(acceptLanguage),
    timeZone: isTimeZone(tz) ? tz : "UTC",
    ...(theme === "light" || theme === "dark" ? { theme } : {}),
  };
}

export function getPreferences(request: Request): Preferences {
  return preferencesFromCookies(readCookies(request), request.headers.get("Accept-Language"));
}

export function preferenceCookie(name: "lang" | "theme", value: string, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export { defaultLanguage };
