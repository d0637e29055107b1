import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { catalogue, loadCore, pageLanguage } from "~/i18n/catalogues.client";
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
  await loadCore();
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
