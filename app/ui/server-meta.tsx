import { type HeadTag, jsonLdText, type SharedPage, type SiteFacts, shareTags } from "~/lib/seo";

const tagKey = (tag: HeadTag, index: number) =>
  "canonical" in tag
    ? "canonical"
    : "hreflang" in tag
      ? `alternate:${tag.hreflang}`
      : `${"name" in tag ? tag.name : tag.property}:${index}`;

/** A page's tags and JSON-LD as the server writes them (`PageMeta`, whose module imports this on the server). */
export function serverMeta(page: SharedPage, site: SiteFacts, jsonLd: unknown) {
  return (
    <>
      {shareTags(page, site).map((tag, index) =>
        "canonical" in tag ? (
          <link key={tagKey(tag, index)} rel="canonical" href={tag.canonical} />
        ) : "hreflang" in tag ? (
          <link key={tagKey(tag, index)} rel="alternate" hrefLang={tag.hreflang} href={tag.href} />
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
