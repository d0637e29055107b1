import { type Language, languages } from "~/i18n/config";
import { alternatePaths, localizedPath, unprefixedPath } from "~/i18n/urls";

/**
 * What search engines and link previews read of a page (ADR 46): its description, canonical
 * address, Open Graph and Twitter card tags, built from a few facts so every public page says them the same
 * way. Addresses are made absolute from the configured origin (`APP_ORIGIN`, through the root loader), never
 * from the request's Host header, so a forged Host cannot reach a kept page (security model S18, S55).
 */

/** A page's picture: a raster image (PNG or JPEG, as previews read) with its size and a text alternative. */
export type ShareImage = { url: string; width: number; height: number; alt: string };

export type SharedPage = {
  /** The page's own name (the `<title>` adds the site's). */
  title: string;
  description: string;
  /** The canonical path, with only the query parameters that change what the page shows. */
  path: string;
  image?: ShareImage;
  type?: "website" | "article" | "product" | "book";
};

/**
 * `urlLanguage`: the language the page's URL names (`/es/…`, ADR 87), or null at the unprefixed address, which
 * shows the reader's own language.
 */
export type SiteFacts = { origin: string; name: string; language: Language; urlLanguage?: Language | null };

/** A head element: `<meta name|property content>`, the canonical `<link>` or a language's alternate. */
export type HeadTag =
  | { name: string; content: string }
  | { property: string; content: string }
  | { canonical: string }
  | { hreflang: string; href: string };

/** Open Graph's locale for each interface language. */
export const ogLocales: Record<Language, string> = { en: "en_US", es: "es_ES", fr: "fr_FR", ja: "ja_JP" };

/** The generated card of pages without a picture of their own (routes/card.ts). */
export const siteCard = (alt: string): ShareImage => ({
  url: "/card/site.png",
  width: 1200,
  height: 630,
  alt,
});

/** A path or address on the site as an absolute address on `origin`; an https address stays as it is. */
export function absolute(origin: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${origin}${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * A description of at most `max` characters, cut at a word, on one line. 150: what search results show of
 * it, and each character is written twice in a chapter page's head (description and og:description), whose
 * weight beside the text has a budget (bench/budgets.json, chapterHtmlToText).
 */
export function clip(text: string, max = 150): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}

/**
 * The tags of a page. Twitter's card names only its kind: X reads the title, description and image from
 * the Open Graph tags when its own are absent, and the chapter page's markup has a budget (ADR 30).
 */
export function shareTags(page: SharedPage, site: SiteFacts): HeadTag[] {
  // The page's own address: its language's when the URL names one, else the unprefixed x-default.
  const path = unprefixedPath(page.path);
  const url = absolute(site.origin, site.urlLanguage ? localizedPath(site.urlLanguage, path) : path);
  const description = clip(page.description);
  const tags: HeadTag[] = [
    { name: "description", content: description },
    { canonical: url },
    { property: "og:title", content: page.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:site_name", content: site.name },
    { property: "og:locale", content: ogLocales[site.language] },
    ...languages
      .filter((language) => language !== site.language)
      .map((language) => ({ property: "og:locale:alternate", content: ogLocales[language] })),
    // Each language's address and the unprefixed one, which shows the reader's own (x-default).
    ...alternatePaths(path).map(({ hreflang, path: href }) => ({
      hreflang,
      href: absolute(site.origin, href),
    })),
  ];
  if (page.image)
    tags.push(
      { property: "og:image", content: absolute(site.origin, page.image.url) },
      { property: "og:image:width", content: String(page.image.width) },
      { property: "og:image:height", content: String(page.image.height) },
      { property: "og:image:alt", content: page.image.alt },
    );
  tags.push({ name: "twitter:card", content: page.image ? "summary_large_image" : "summary" });
  return tags;
}

/**
 * JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` as JSON escapes, so no string inside
 * can close the element or open a comment (`</script>`, `<!--`), and U+2028/U+2029 escaped too. It parses
 * back to the same value.
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A canonical path: the pathname and only the named query parameters, in that order, when set. */
export function canonicalPath(
  pathname: string,
  search: URLSearchParams,
  keep: readonly string[] = [],
): string {
  const kept = new URLSearchParams();
  for (const name of keep) {
    const value = search.get(name);
    if (value) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}
