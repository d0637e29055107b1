import type { Language } from "./config";

import type { Catalogue } from "./translate";

export type { Catalogue };

/** The catalogue of one language, loaded on demand so a page downloads only its own language. */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  const loaders: Record<Language, () => Promise<{ default: Catalogue }>> = {
    en: () => import("./locales/en.json"),
    es: () => import("./locales/es.json"),
    fr: () => import("./locales/fr.json"),
    ja: () => import("./locales/ja.json"),
  };
  return (await loaders[language]()).default;
}
