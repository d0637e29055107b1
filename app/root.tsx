import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  useLocation,
  useNavigation,
  useRouteLoaderData,
  UNSAFE_useScrollRestoration as useScrollRestoration,
} from "react-router";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { getSessionUser } from "./features/auth/session.server";
import { TocSkeleton } from "./features/chapters/toc-skeleton";
import { ErrorScreen, NotFoundScreen } from "./features/layout/error-screen";
import { LanguagePicker, ThemeToggle } from "./features/layout/preference-controls";
import { SideMenu } from "./features/layout/side-menu";
import { settingsStyle } from "./features/reader/settings";
import { useSyncOnSignIn } from "./features/reader/use-sync-on-sign-in";
import { getSiteSettings } from "./features/site/queries.server";
import fonts from "./fonts.css?url";
import { defaultLanguage } from "./i18n/config";
import { AppScripts } from "./lib/app-scripts";
import { useNonce } from "./lib/nonce";
import { getPreferences } from "./lib/preferences.server";
import { themeForPath } from "./lib/route-theme";

export const links: Route.LinksFunction = () => [
  // With a precedence React puts the stylesheet first in the head: the page cannot paint before it arrives.
  // The app's scripts and the site's faces come after the first paint (AppScripts, ADR 11).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const preferences = getPreferences(request);
  const [site, user] = await Promise.all([getSiteSettings(), getSessionUser(request)]);
  return {
    ...preferences,
    site: { title: site.title, tagline: site.tagline },
    // Nothing else of the account: every page is the same for all readers with the same settings, so the
    // page cache can share it (server/page-cache.ts). Personal figures are fetched by the parts showing them.
    signedIn: Boolean(user),
    // Signed-in readers' settings are rendered by the server; visitors' come from storage (head script).
    readingSettings: user ? user.readingSettings : null,
  };
}

/**
 * Runs before first paint: applies a visitor's reading settings, follows the system colour scheme until a
 * theme is chosen, and on a repeat visit (the faces are in the browser's cache by then) asks for the font
 * stylesheet before painting, so the text does not swap faces on every page (ADR 11).
 */
const headScript = (fontsHref: string) => `(function(){var d=document.documentElement,c=document.cookie;
if(!d.hasAttribute("data-account-settings"))try{var r=JSON.parse(localStorage.getItem("reading")||"{}").settings;
if(r&&[14,16,18,20].indexOf(r.fontSize)>=0&&[1.5,1.75,2].indexOf(r.lineHeight)>=0&&/^(serif|sans-serif|gothic|dyslexic)$/.test(r.fontFamily)){
d.style.setProperty("--reader-size",r.fontSize+"px");d.style.setProperty("--reader-leading",r.lineHeight);
d.style.setProperty("--reader-family","var(--font-reader-"+r.fontFamily+")")}}catch(e){}
try{if(localStorage.getItem("fonts")){var l=document.createElement("link");l.rel="stylesheet";l.href=${JSON.stringify(fontsHref)};
l.setAttribute("blocking","render");document.head.appendChild(l)}}catch(e){}
if(!/(^|; )theme=/.test(c)&&matchMedia("(prefers-color-scheme: dark)").matches)d.classList.add("dark")})()`;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const language = data?.language ?? defaultLanguage;
  return (
    <html
      lang={language}
      className={data?.theme === "dark" ? "dark" : undefined}
      style={data?.readingSettings ? (settingsStyle(data.readingSettings) as React.CSSProperties) : undefined}
      data-account-settings={data?.readingSettings ? "" : undefined}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Run once, as the server wrote it; the browser's build need not carry it. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? headScript(fonts) : "" }}
        />
        <noscript>
          <link rel="stylesheet" href={fonts} />
        </noscript>
        <Meta />
        <Links />
      </head>
      <body data-route-theme={themeForPath(pathname)} className="flex min-h-dvh flex-col">
        <a href="#main" className="skip-link">
          {t("nav.skipToContent")}
        </a>
        <header className="sticky top-0 z-30 border-b border-line bg-[color:var(--surface)] backdrop-blur">
          <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-6">
            <Link to="/" className="truncate font-display text-lg tracking-wider text-primary sm:text-xl">
              {data?.site.title}
            </Link>
            <div className="flex shrink-0 items-center gap-1">
              <LanguagePicker language={language} />
              <ThemeToggle />
              <SideMenu signedIn={Boolean(data?.signedIn)} />
            </div>
          </div>
        </header>
        <main id="main" className="flex-1">
          {children}
        </main>
        <footer className="border-t border-line py-6 text-center text-sm text-muted">
          <p>{data?.site.tagline}</p>
          <p className="mt-2 flex justify-center gap-4">
            <Link to="/terms" className="underline underline-offset-2">
              {t("footer.terms")}
            </Link>
            <Link to="/privacy" className="underline underline-offset-2">
              {t("footer.privacy")}
            </Link>
          </p>
        </footer>
        <AppScripts nonce={nonce} stylesheet={fonts} />
      </body>
    </html>
  );
}

/** Pages with a skeleton of their own show it while their data loads; others keep the old page meanwhile. */
const skeletons: Record<string, () => React.ReactNode> = { "/toc": TocSkeleton, "/chapters": TocSkeleton };

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
      {Skeleton ? <Skeleton /> : <Outlet />}
    </>
  );
}

function NavigationProgress() {
  const { t } = useTranslation();
  return (
    <div
      role="progressbar"
      aria-label={t("common.loading")}
      className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden"
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-primary motion-reduce:w-full motion-reduce:animate-none" />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  console.error(error);
  return <ErrorScreen />;
}
