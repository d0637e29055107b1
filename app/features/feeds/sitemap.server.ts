import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { listProducts } from "~/features/shop/queries.server";
import { listWikiPages } from "~/features/wiki/queries.server";
import { languages } from "~/i18n/config";
import { alternatePaths } from "~/i18n/urls";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";

/** The public pages that are not a chapter, a wiki page or a product. */
const PAGES = [
  "/",
  "/about",
  "/toc",
  "/wiki",
  "/gallery",
  "/shop",
  "/fundraiser",
  "/fundraiser/supporters",
  "/terms",
  "/privacy",
];

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

/**
 * `sitemap.xml` (sitemaps.org 0.9): the public pages, every released chapter with the day it last changed
 * (its release, or a later edit), the wiki's pages and the products. A scheduled chapter or a draft is not
 * listed: the release clock decides, as for every page.
 */
export async function sitemap(now = releaseTime()): Promise<string> {
  const origin = getEnv().origin;
  const [catalog, wiki, products] = await Promise.all([getChapterCatalog(), listWikiPages(), listProducts()]);
  const entries: { path: string; lastmod?: Date }[] = [
    ...PAGES.map((path) => ({ path })),
    ...catalog.published
      .filter((chapter) => chapterStatus(chapter, now) !== "locked")
      .map((chapter) => ({
        path: `/chapter/${chapter.number}`,
        lastmod: new Date(Math.max(chapter.releaseAt.getTime(), chapter.updatedAt.getTime())),
      })),
    ...wiki.map((page) => ({ path: `/wiki/${page.section}/${page.slug}` })),
    ...products.map((product) => ({ path: `/shop/product/${product.id}` })),
  ];
  // Each page at each of its addresses (the four languages' and the unprefixed x-default, ADR 87), each naming
  // all of them as alternates: the sitemap protocol's form of hreflang.
  const urls = entries.flatMap(({ path, lastmod }) => {
    const alternates = alternatePaths(path);
    const links = alternates
      .map(
        ({ hreflang, path: href }) =>
          `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(`${origin}${href}`)}"/>`,
      )
      .join("");
    const modified = lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : "";
    return alternates.map(
      ({ path: loc }) => `<url><loc>${escapeXml(`${origin}${loc}`)}</loc>${modified}${links}</url>`,
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}

/** `robots.txt`: everything but the private paths (prefixes, as robots.txt reads them), and where the sitemap is. */
export function robots(disallowed: readonly string[]): string {
  return [
    "User-agent: *",
    // The private paths at each language's address too (`/es/account`).
    ...[
      ...disallowed,
      ...languages.flatMap((language) => disallowed.map((path) => `/${language}${path}`)),
    ].map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${getEnv().origin}/sitemap.xml`,
    "",
  ].join("\n");
}
