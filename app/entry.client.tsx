import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { loadCatalogue } from "~/i18n/catalogues.client";
import { defaultLanguage, isLanguage } from "~/i18n/config";
import { I18nProvider } from "~/i18n/react";

/**
 * A view transition the browser aborts (the viewport changed, the tab was hidden) rejects its `ready`
 * promise, which React Router leaves unhandled. The transition is decoration and the navigation completes
 * regardless, so the rejection is caught here.
 */
function quietAbortedViewTransitions() {
  const start = document.startViewTransition?.bind(document);
  if (!start) return;
  document.startViewTransition = ((update?: ViewTransitionUpdateCallback) => {
    const transition = start(update);
    transition.ready.catch(() => {});
    return transition;
  }) as typeof document.startViewTransition;
}

async function hydrate() {
  quietAbortedViewTransitions();
  const lang = document.documentElement.lang;
  const language = isLanguage(lang) ? lang : defaultLanguage;
  const catalogue = await loadCatalogue(language);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nProvider language={language} catalogue={catalogue}>
          <HydratedRouter />
        </I18nProvider>
      </StrictMode>,
    );
  });
}

void hydrate();
