/**
 * Reading settings (docs/product-rules.md "Reading settings"): shared by the sheet, browser storage and the
 * server. The choices alone, which the chapter page loads first; their labels are in options.tsx, loaded
 * with the sheet.
 */
export const settingChoices = {
  fontSize: [14, 16, 18, 20],
  fontFamily: ["serif", "sans-serif", "gothic", "dyslexic"],
  lineHeight: [1.5, 1.75, 2],
  /** "auto" is the site's light or dark; sepia and contrast replace both while chosen (ADR 88). */
  theme: ["auto", "sepia", "contrast"],
  textWidth: ["narrow", "medium", "wide"],
  paragraphSpacing: ["small", "medium", "large"],
  textAlign: ["start", "justify"],
  /** The author's notes around a chapter: a closed summary to open, or open (ADR 95). */
  authorNotes: ["folded", "full"],
  /**
   * A chapter shown in a translation with its original's paragraphs beside (or under) each translated one
   * (ADR 97). Unlike the others it changes the page's HTML: the server renders the pairs, so it is in the page
   * cache's key (a signed-in reader's settings; a visitor's cookie: side-by-side-cookie.ts).
   */
  sideBySide: ["off", "on"],
} as const;

type Choices = typeof settingChoices;
/** Numbers as numbers (the database's columns), words as their union. */
export type ReadingSettings = {
  -readonly [K in keyof Choices]: Choices[K][number] extends number ? number : Choices[K][number];
};
export type FontFamily = ReadingSettings["fontFamily"];

export const defaultSettings: ReadingSettings = {
  fontSize: 16,
  fontFamily: "serif",
  lineHeight: 1.75,
  theme: "auto",
  textWidth: "medium",
  paragraphSpacing: "medium",
  textAlign: "start",
  authorNotes: "folded",
  sideBySide: "off",
};

/**
 * Checks settings from storage or a form (values may be strings); hand-written to keep zod off the page. A
 * setting left out keeps its value in `base` (settings kept before it existed, a form naming only some), so
 * nothing chosen is lost; one given with a value not among its choices refuses the whole.
 */
export function parseSettings(value: unknown, base = defaultSettings): ReadingSettings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const given = value as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  for (const [key, choices] of Object.entries(settingChoices)) {
    const v = given[key];
    settings[key] =
      v === undefined
        ? base[key as keyof ReadingSettings]
        : (choices as readonly unknown[]).find((choice) => String(choice) === String(v));
    if (!settings[key]) return undefined;
  }
  return settings as ReadingSettings;
}

/** The settings as `<html>`'s data attributes, as the server renders them for a signed-in reader. */
export const settingAttributes = (settings?: ReadingSettings) =>
  Object.fromEntries(
    Object.entries(settings ?? {}).map(([key, value]) => [
      `data-${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      value,
    ]),
  );

/**
 * Settings are data attributes on <html> (`data-font-size`, `data-theme`, `data-text-width`…), which app.css
 * turns into the reader's text style and colours: the server renders them for signed-in readers, the head
 * script (app/lib/head-script.ts) sets them from storage for visitors before the first paint, and this sets
 * them on a change. A value app.css does not list leaves the default.
 */
export function showSettings(settings: ReadingSettings) {
  for (const [key, value] of Object.entries(settings)) document.documentElement.dataset[key] = String(value);
}

/** The one browser-storage key for visitors' reading data (settings and per-chapter progress). */
export const STORAGE_KEY = "reading";
