import { useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n/react";
import { type HeadTag, jsonLdText, type SharedPage, shareTags } from "~/lib/seo";

type RootFacts = { origin?: string; site?: { title: string } } | undefined;

/** The site's public origin and name, from the root loader (the configuration, never the Host header). */
export function useSiteFacts() {
  const root = useRouteLoaderData("root") as RootFacts;
  const { i18n } = useTranslation();
  return { origin: root?.origin ?? "", name: root?.site?.title ?? "", language: i18n.language };
}

const tagKey = (tag: HeadTag, index: number) =>
  "canonical" in tag ? "canonical" : `${"name" in tag ? tag.name : tag.property}:${index}`;

/**
 * A public page's description, canonical address, Open Graph and Twitter card tags (lib/seo.ts) and its
 * JSON-LD. React hoists the `<meta>` and `<link>` into the head, on the server and on client navigations
 * alike (as `DocumentTitle` does); the JSON-LD stays where it is rendered, escaped so no text closes it.
 */
export function PageMeta({ jsonLd, ...page }: SharedPage & { jsonLd?: unknown }) {
  const site = useSiteFacts();
  return (
    <>
      {shareTags(page, site).map((tag, index) =>
        "canonical" in tag ? (
          <link key={tagKey(tag, index)} rel="canonical" href={tag.canonical} />
        ) : (
          <meta key={tagKey(tag, index)} {...tag} />
        ),
      )}
      {jsonLd ? (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }} />
      ) : null}
    </>
  );
}
