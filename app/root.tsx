import { Suspense } from "react";
import { isRouteErrorResponse, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";
import { lazyComponent } from "~/ui/lazy-component";
import { Link } from "~/ui/link";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import bootScript from "./boot.ts?worker&url";
import { getSessionUser } from "./features/auth/session.server";
import { LanguagePicker, ThemeToggle } from "./features/layout/preference-controls";
import { SideMenu } from "./features/layout/side-menu";
import { siteNavHtml } from "./features/layout/site-nav.server";
import { useSyncOnSignIn } from "./features/reader/use-sync-on-sign-in";
import { defaultSettings, settingAttributes } from "./features/reading-settings/settings";
import { simulatedPaymentsNotice, unconfirmedEmailNotice } from "./features/site/notices.server";
import { getSiteSettings } from "./features/site/queries.server";
import fonts from "./fonts.css?url";
import { pathLanguage } from "./i18n/urls";
import { AppScripts } from "./lib/app-scripts";
import { useDocumentOnly } from "./lib/document-only";
import { getEnv } from "./lib/env.server";
import headScriptFunction from "./lib/head-script.ts?inline-script";
import { useNonce } from "./lib/nonce";
import { getPreferences } from "./lib/preferences.server";
import { themeForPath } from "./lib/route-theme";
import { useScrollRestoration } from "./lib/router-internals";

export async function loader({ request, context }: Route.LoaderArgs) {
  const preferences = getPreferences(request);
  // The public origin, for the absolute addresses of search engines and link previews (lib/seo.ts), which
  // only the server render writes: the configuration's, never the request's Host header, so every kept page
  // carries the same one (S55); not in the route data.
  if (context.documentRequest) context.documentOnly.origin = getEnv().origin;
  // The language a language's URL names (ADR 87): its head tags are the server's alone (ui/page-meta.tsx).
  const urlLanguage = pathLanguage(new URL(request.url).pathname);
  if (context.documentRequest && urlLanguage) context.documentOnly.urlLanguage = urlLanguage;
  const [site, user] = await Promise.all([getSiteSettings(), getSessionUser(request)]);
  // The footer's links, written by the server alone (features/layout/site-nav.server.ts).
  if (context.documentRequest)
    context.documentOnly.siteNav = siteNavHtml(preferences.language, Boolean(user), urlLanguage);
  const notice = simulatedPaymentsNotice(preferences.language);
  const unconfirmed = unconfirmedEmailNotice(preferences.language, user, new URL(request.url).pathname);
  return {
    ...preferences,
    site: { title: site.title, tagline: site.tagline },
    // Nothing else of the account: every page is the same for all readers with the same settings, so the
    // page cache can share it (server/page-cache.ts). Personal figures are fetched by the parts showing them.
    signedIn: Boolean(user),
    // The way into the admin. Only an author's pages carry it, and no page rendered for an author is kept for
    // anyone else (features/reader/sharing.ts, ADR 53): a reader's pages are byte for byte what they were.
    ...(user?.role === "author" ? { isAuthor: true } : {}),
    // The same for every page of the process, so kept pages carry it too (ADR 16).
    ...(notice ? { simulatedPayments: notice } : {}),
    // Until the reader confirms their address, on every page but a shared chapter page (ADR 56).
    ...(unconfirmed ? { unconfirmedEmail: unconfirmed } : {}),
    // Signed-in readers' settings are rendered by the server; visitors' come from storage (head script).
    ...(user ? { readingSettings: user.readingSettings } : {}),
    // The language a language's URL names (ADR 87): the page's feed links are that language's.
    ...(urlLanguage ? { urlLanguage } : {}),
  };
}

/**
 * The head script (lib/head-script.ts, minified by the build): a visitor's reading settings and theme before
 * the first paint, the site's faces, and the boot script once the page has painted.
 */
const settingKeys = Object.keys(defaultSettings);
const headScript = (fontsHref: string, bootHref: string) =>
  `(${headScriptFunction})(${[fontsHref, bootHref, settingKeys].map((value) => JSON.stringify(value)).join()})`;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const siteNav = useDocumentOnly("siteNav");
  const noindex = useDocumentOnly("noindex");
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  // Without the root's data (its loader failed: the error screens) the request's language still applies.
  const language = data?.language ?? i18n.language;
  const feeds = data?.urlLanguage ? `/${data.urlLanguage}/feed` : "/feed";
  return (
    <html
      lang={language}
      className={data?.theme === "dark" ? "dark" : undefined}
      {...settingAttributes(data?.readingSettings)}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <noscript>
          <link rel="stylesheet" href={fonts} />
        </noscript>
        {/* The page paints once the stylesheet is here. The head script follows it, so the browser reads the
            rest of the page once it has the stylesheet and lays the page out once, styled (before it, the page
            was laid out unstyled as soon as it was read, then again; ADR 55). The app's scripts and the site's
            faces come after the first paint (AppScripts, ADR 11). Written here, and there is no <Links /> (no
            route has links or a stylesheet of its own: `npm run lint` refuses a stylesheet imported elsewhere),
            nor <Meta /> (pages name themselves with <title>; ADR 48). */}
        <link rel="stylesheet" href={stylesheet} />
        {/* Run once, as the server wrote it; the browser's build need not carry it. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? headScript(fonts, bootScript) : "" }}
        />
        {/* No `type`: the browser reads the icon's type from the file (a few bytes less on every page). */}
        <link rel="icon" href="/favicon.svg" />
        {/* The site installs as an app; its worker keeps chapters for reading offline (ADR 96). */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <meta name="theme-color" content="#9b1030" />
        {/* The releases feed, for feed readers that find it from any page (ADR 44), in the page's URL's
            language (ADR 87). */}
        <link rel="alternate" type="application/atom+xml" href={`${feeds}.atom`} />
        <link rel="alternate" type="application/rss+xml" href={`${feeds}.rss`} />
        {/* A reader's own pages, forms and the admin are not for search engines (robots.txt says it too). */}
        {/* Written by the server (crawlers read its page) from the route's rules (app/entry.server.tsx), so the
            browser's scripts carry no list of paths. */}
        {noindex ? <meta name="robots" content="noindex" /> : null}
      </head>
      <body data-route-theme={themeForPath(pathname)}>
        <a href="#main" className="skip-link">
          {t("nav.skipToContent")}
        </a>
        {data?.simulatedPayments ? (
          <p role="note" className="notice-banner">
            {data.simulatedPayments}
          </p>
        ) : null}
        {data?.unconfirmedEmail ? (
          <p role="note" className="notice-banner">
            <Link to="/confirm-email">{data.unconfirmedEmail}</Link>
          </p>
        ) : null}
        <header className="site-header">
          <div className="site-header-row">
            {/* Its route is found when followed (`discover`): the page names no route it does not need. */}
            <Link to="/" className="site-title" discover="none">
              {data?.site.title}
            </Link>
            <div className="site-tools">
              <LanguagePicker language={language} />
              <ThemeToggle />
              <SideMenu signedIn={Boolean(data?.signedIn)} />
            </div>
          </div>
        </header>
        <main id="main" className="flex-1">
          {children}
        </main>
        <footer className="site-footer">
          <p>{data?.site.tagline}</p>
          {/* The site's sections, where the menu button leads without JavaScript: the server's HTML, kept as it
              is by the browser (features/layout/site-nav.server.ts). */}
          <nav id="site-nav" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: siteNav ?? "" }} />
        </footer>
        <AppScripts />
      </body>
    </html>
  );
}

/**
 * Pages with a skeleton of their own show it while their data loads; others keep the old page meanwhile.
 * The skeleton is fetched as the navigation to its page starts, with that page's own code.
 */
const TocSkeleton = lazyComponent(() => import("./features/chapters/toc-skeleton"), "TocSkeleton");
const skeletons: Record<string, React.ComponentType> = { "/toc": TocSkeleton, "/chapters": TocSkeleton };

export default function App() {
  const root = useRouteLoaderData<typeof loader>("root");
  useSyncOnSignIn(Boolean(root?.signedIn));
  // React Router's <ScrollRestoration> without its inline script: between pages of the app the hook keeps
  // and restores positions; on a reload the browser restores the document's own (the hook hands scrolling
  // back to it when the page is left).
  useScrollRestoration();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const pending = navigation.state === "loading" ? navigation.location.pathname : undefined;
  const Skeleton = pending && pending !== pathname ? skeletons[pending] : undefined;
  return (
    <>
      {navigation.state !== "idle" ? <NavigationProgress /> : null}
      {Skeleton ? (
        <Suspense fallback={null}>
          <Skeleton />
        </Suspense>
      ) : (
        <Outlet />
      )}
    </>
  );
}

function NavigationProgress() {
  const { t } = useTranslation();
  return (
    <div role="progressbar" aria-label={t("common.loading")} className="navigation-progress">
      <div />
    </div>
  );
}

/**
 * The error screens. The server renders them as they are; the browser fetches them when it shows one (a page
 * that hydrates one keeps the server's markup meanwhile), so pages without an error do not download them.
 */
const screens = import.meta.env.SSR ? await import("./features/layout/error-screen") : undefined;
const screen = (name: "ErrorScreen" | "NotFoundScreen") =>
  screens?.[name] ?? lazyComponent(() => import("./features/layout/error-screen"), name);
const ErrorScreen = screen("ErrorScreen");
const NotFoundScreen = screen("NotFoundScreen");
const OutageScreen = import.meta.env.SSR
  ? (await import("./features/layout/outage-screen")).OutageScreen
  : lazyComponent(() => import("./features/layout/outage-screen"), "OutageScreen");

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // The database out of reach (server/database-outage.ts): a passing state, answered 503 with Retry-After.
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  // A 4xx is the client's mistake (a body that is not a form, say), not the site's: not logged as an error.
  const clientError = isRouteErrorResponse(error) && error.status < 500;
  if (!clientError && !unavailable) console.error(error);
  return (
    <Suspense fallback={null}>
      {notFound ? <NotFoundScreen /> : unavailable ? <OutageScreen /> : <ErrorScreen />}
    </Suspense>
  );
}
