import { defaultLanguage, isLanguage, type Language } from "./config";
import type { Catalogue } from "./translate";

/**
 * The catalogue the browser translates with. `I18nProvider` holds this very object and the translator
 * looks keys up when it is called, so namespaces merged in later are found by every component.
 */
export const catalogue: Catalogue = {};

/** The language the server rendered the page in; the catalogue is loaded in it (one per page load). */
export function pageLanguage(): Language {
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : defaultLanguage;
}

type Loaders = Record<Language, () => Promise<{ default: Catalogue }>>;

// One chunk per half and language (app/i18n/vite-plugin.ts), so a page downloads only its own language.
const halves = {
  core: {
    en: () => import("virtual:i18n/core-en"),
    es: () => import("virtual:i18n/core-es"),
    fr: () => import("virtual:i18n/core-fr"),
    ja: () => import("virtual:i18n/core-ja"),
  },
  pages: {
    en: () => import("virtual:i18n/pages-en"),
    es: () => import("virtual:i18n/pages-es"),
    fr: () => import("virtual:i18n/pages-fr"),
    ja: () => import("virtual:i18n/pages-ja"),
  },
} satisfies Record<string, Loaders>;

const loaded: Partial<Record<keyof typeof halves, Promise<void>>> = {};

function load(half: keyof typeof halves): Promise<void> {
  loaded[half] ??= halves[half][pageLanguage()]().then((module) => {
    Object.assign(catalogue, module.default);
  });
  return loaded[half];
}

/** The core namespaces (layout, chapter page, errors): loaded before hydrating. */
export const loadCore = () => load("core");

/**
 * Every namespace the browser uses, for the other pages. The core is asked for alongside (the app's start
 * then finds it loaded), so a page load outside the core waits for one round trip, as before.
 */
export const loadAll = () => Promise.all([load("core"), load("pages")]);
