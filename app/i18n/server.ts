import type { Language } from "./config";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import ja from "./locales/ja.json";
import { type Catalogue, createTranslator, type Translate } from "./translate";

/** Every catalogue: the server renders pages and writes e-mails in any language. */
export const catalogues: Record<Language, Catalogue> = { en, es, fr, ja };

const translators = new Map<Language, Translate>();

/** The translate function of a language, for text made outside React (e-mails). */
export function serverTranslator(language: Language): Translate {
  let t = translators.get(language);
  if (!t) {
    t = createTranslator(language, catalogues[language]);
    translators.set(language, t);
  }
  return t;
}
