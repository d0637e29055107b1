import { defaultLanguage, isLanguage, type Language, negotiateLanguage } from "~/i18n/config";

export type Theme = "light" | "dark";

/** The visitor's display preferences, from cookies (set by the /preferences action and the head script). */
export type Preferences = {
  language: Language;
  /** Undefined until chosen: the page then follows `prefers-color-scheme`. */
  theme: Theme | undefined;
  timeZone: string;
};

export function readCookies(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
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

export function isTimeZone(value: string | undefined): value is string {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function getPreferences(request: Request): Preferences {
  const cookies = readCookies(request);
  const lang = cookies.get("lang");
  const theme = cookies.get("theme");
  const tz = cookies.get("tz");
  return {
    language: isLanguage(lang) ? lang : negotiateLanguage(request.headers.get("Accept-Language")),
    theme: theme === "light" || theme === "dark" ? theme : undefined,
    timeZone: isTimeZone(tz) ? tz : "UTC",
  };
}

export function preferenceCookie(name: "lang" | "theme", value: string, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export { defaultLanguage };
