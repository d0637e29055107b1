export const languages = ["en", "es", "fr", "ja"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "en";

/**
 * The catalogue namespaces the browser loads before it hydrates: those the layout (app/root.tsx), the chapter
 * page, the 404 page and the error screen use. The other pages' namespaces come with their route modules
 * (app/i18n/full-catalogue.ts); `npm run lint` checks both halves (scripts/check-i18n.ts).
 */
export const coreNamespaces = ["common", "nav", "error", "notFound", "reader"];

/**
 * Namespaces only the server uses (e-mails, pages the server answers itself, an upload's refusal, which the
 * admin's action words, the footer's links: features/layout/site-nav.server.ts; the EPUB file's words:
 * features/epub): never sent to the browser.
 */
export const serverNamespaces = ["mail", "httpErrors", "notices", "uploads", "footer", "epub"];

/** Each language's own name for itself: shown as is in every interface language. */
export const languageNames: Record<Language, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  ja: "日本語",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

/** Picks the best supported language from an Accept-Language header (q-values honoured). */
export function negotiateLanguage(header: string | null | undefined): Language {
  if (!header) return defaultLanguage;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { base: tag.toLowerCase().split("-")[0], quality: Number.isNaN(quality) ? 0 : quality, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguage) ?? defaultLanguage;
}
