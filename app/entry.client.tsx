import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { catalogue, loadCore, pageLanguage } from "~/i18n/catalogues.client";
import { I18nProvider } from "~/i18n/react";
import { registerRouteModules } from "~/lib/router-internals";

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

/** Remembers the reader's time zone, so the server can show dates in it (app/lib/preferences.server.ts). */
function rememberTimeZone() {
  try {
    const zone = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone);
    if (zone && !document.cookie.includes(`tz=${zone}`))
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser served.
      document.cookie = `tz=${zone}; Path=/; Max-Age=31536000; SameSite=Lax`;
  } catch {}
}

async function hydrate() {
  quietAbortedViewTransitions();
  rememberTimeZone();
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
