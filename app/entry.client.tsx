import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { loadCatalogue } from "~/i18n/catalogues.client";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { createI18n } from "~/i18n/i18n";

async function hydrate() {
  const lang = document.documentElement.lang;
  const language = isLanguage(lang) ? lang : defaultLanguage;
  const i18n = createI18n(language, { [language]: { translation: await loadCatalogue(language) } });
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <HydratedRouter />
        </I18nextProvider>
      </StrictMode>,
    );
  });
}

void hydrate();
