/** Reading settings (docs/product-rules.md "Reading settings"): shared by the sheet, browser storage and the server. */
export const fontSizes = [
  { value: 14, key: "small" },
  { value: 16, key: "medium" },
  { value: 18, key: "large" },
  { value: 20, key: "extraLarge" },
] as const;

export const lineHeights = [
  { value: 1.5, key: "compact" },
  { value: 1.75, key: "normal" },
  { value: 2, key: "relaxed" },
] as const;

export const fontFamilyKeys = ["serif", "sans-serif", "gothic", "dyslexic"] as const;
export type FontFamily = (typeof fontFamilyKeys)[number];

export type ReadingSettings = { fontSize: number; fontFamily: FontFamily; lineHeight: number };

/** Checks settings from storage or a form (values may be strings); hand-written to keep zod off the page. */
export function parseSettings(value: unknown): ReadingSettings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const fontSize = Number(v.fontSize);
  const lineHeight = Number(v.lineHeight);
  const fontFamily = fontFamilyKeys.find((key) => key === v.fontFamily);
  if (
    !fontSizes.some((s) => s.value === fontSize) ||
    !lineHeights.some((h) => h.value === lineHeight) ||
    !fontFamily
  ) {
    return undefined;
  }
  return { fontSize, fontFamily, lineHeight };
}

export const defaultSettings: ReadingSettings = { fontSize: 16, fontFamily: "serif", lineHeight: 1.75 };

/**
 * Settings are data attributes on <html> (`data-font-size`, `data-line-height`, `data-font-family`), which
 * app.css turns into the reader's text style: the server renders them for signed-in readers, the head script
 * (app/lib/head-script.ts) sets them from storage for visitors before the first paint, and this sets them on
 * a change. A value app.css does not list leaves the default.
 */
export function showSettings(settings: ReadingSettings) {
  const { dataset } = document.documentElement;
  dataset.fontSize = String(settings.fontSize);
  dataset.lineHeight = String(settings.lineHeight);
  dataset.fontFamily = settings.fontFamily;
}

/** The one browser-storage key for visitors' reading data (settings and per-chapter progress). */
export const STORAGE_KEY = "reading";
