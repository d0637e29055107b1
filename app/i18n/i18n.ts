import i18next, { type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { defaultLanguage, type Language } from "./config";

/** One i18next instance per request on the server, one per page on the client. */
export function createI18n(language: Language, resources: Resource): i18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: defaultLanguage,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
