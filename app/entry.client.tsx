import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { catalogue, loadCore, pageLanguage } from "~/i18n/catalogues.client";
import { I18nProvider } from "~/i18n/react";
import { registerRouteModules } from "~/lib/router-internals";

async function hydrate() {
  await Promise.all([loadCore(), registerRouteModules()]);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nProvider language={pageLanguage()} catalogue={catalogue}>
          <HydratedRouter />
        </I18nProvider>
      </StrictMode>,
    );
  });
}

void hydrate();
