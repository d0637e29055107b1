import { useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import type { Language } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { useDocumentOnly } from "~/lib/document-only";
import type { SharedPage } from "~/lib/seo";

type RootFacts = { site?: { title: string } } | undefined;

/**
 * The site's public origin (handed by the root loader to the server render: the configuration's, never the
 * Host header) and its name.
 */
export function useSiteFacts() {
  const root = useRouteLoaderData("root") as RootFacts;
  const { i18n } = useTranslation();
  // The language a language's URL names (ADR 87), handed to the server render alone like the origin: the
  // browser's scripts carry no URL parsing for tags only the server writes.
  const urlLanguage = (useDocumentOnly("urlLanguage") as Language | undefined) ?? null;
  return {
    origin: useDocumentOnly("origin") ?? "",
    name: root?.site?.title ?? "",
    language: i18n.language,
    urlLanguage,
  };
}

/** The tags the server wrote for search engines and previews (`ServerMeta`). */
const SERVER_TAGS =
  'link[rel="canonical"],link[hreflang],meta[name="description"],meta[property^="og:"],meta[name^="twitter:"]';

/**
 * The browser's side of a page's tags: nothing to build (the builders stay on the server, out of the pages'
 * scripts: ADR 46). The JSON-LD's element is kept as the server wrote it, and when the reader moves to
 * another page the server's tags leave the head, so it never names a page the reader has left (a browser's
 * Share reads the canonical link). Crawlers and link previews read the server's page, never a client
 * navigation.
 */
export function ClientMeta({ path, jsonLd }: { path: string; jsonLd: boolean }) {
  useEffect(
    () => () => {
      for (const tag of document.head.querySelectorAll(SERVER_TAGS)) tag.remove();
    },
    [path],
  );
  return jsonLd ? (
    <script
      key={path}
      type="application/ld+json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: "" }}
    />
  ) : null;
}

/**
 * A public page's description, canonical address, Open Graph and Twitter card tags (lib/seo.ts) and its
 * JSON-LD, written by the server: React hoists the `<meta>` and `<link>` into the head; the JSON-LD stays
 * where it is rendered, escaped so no text closes it (ui/server-meta.tsx). In the browser, `ClientMeta`.
 */
export function PageMeta({ jsonLd, ...page }: SharedPage & { jsonLd?: unknown }) {
  const site = useSiteFacts();
  return serverMeta ? (
    serverMeta(page, site, jsonLd)
  ) : (
    <ClientMeta path={page.path} jsonLd={Boolean(jsonLd)} />
  );
}

// The server's build only: the browser's scripts carry neither it nor the builders it uses (lib/seo.ts).
const serverMeta = import.meta.env.SSR ? (await import("./server-meta")).serverMeta : undefined;
