import type { i18n } from "i18next";
import { type Language, languages } from "./config";
import { createI18n } from "./i18n";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import ja from "./locales/ja.json";

/** Every catalogue: the server renders and writes e-mails in any language. */
export const resources = Object.fromEntries(
  languages.map((language) => [language, { translation: { en, es, fr, ja }[language] }]),
);

const instances = new Map<Language, i18n>();

/** A shared i18next instance per language, for text made outside React (e-mails, messages). */
export function serverI18n(language: Language): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, resources);
    instances.set(language, instance);
  }
  return instance;
}
