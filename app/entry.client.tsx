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

type TemporalNow = { Now: { timeZoneId(): string } };

/**
 * Remembers the reader's time zone, so the server can show dates in it (app/lib/preferences.server.ts).
 * Temporal names it for nothing; `Intl.DateTimeFormat`, where Temporal is missing, first loads the locale
 * data (15 ms on a fast computer, four times that on a slow phone, in the middle of hydration), so that path
 * waits until the browser is idle.
 */
function rememberTimeZone() {
  const remember = (zone: string) => {
    const value = encodeURIComponent(zone);
    if (value && !document.cookie.includes(`tz=${value}`))
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser served.
      document.cookie = `tz=${value}; Path=/; Max-Age=31536000; SameSite=Lax`;
  };
  const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal;
  if (temporal) return remember(temporal.Now.timeZoneId());
  const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000));
  whenIdle(() => {
    try {
      remember(Intl.DateTimeFormat().resolvedOptions().timeZone);
    } catch {}
  });
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
