import { useTranslation } from "~/i18n/react";
import { useDocumentOnly } from "~/lib/document-only";
import { absolute } from "~/lib/seo";
import { breadcrumbs, chapter as chapterData, graph } from "~/lib/structured-data";
import { PageMeta, useSiteFacts } from "~/ui/page-meta";
import type { ChapterShare } from "./share.server";

/**
 * A chapter page's description, preview tags and JSON-LD (ADR 46). A free chapter's opening is its
 * description: on a page load it reaches the browser once, in the head (`chapterSummary`, as the text does),
 * and on a client navigation in the route data. Any other chapter says its number and title only.
 */
export function ChapterMeta({
  number,
  title,
  share,
  summary,
}: {
  number: number;
  title: string;
  share: Omit<ChapterShare, "summary">;
  summary?: string;
}) {
  const { t } = useTranslation();
  const site = useSiteFacts();
  const fromServerRender = useDocumentOnly("chapterSummary");
  const opening =
    summary ??
    fromServerRender ??
    (share.status === "free" && typeof document !== "undefined"
      ? document.querySelector('meta[name="description"]')?.getAttribute("content")
      : undefined);
  const name = `${number}. ${title}`;
  const path = `/chapter/${number}`;
  const book = { name: site.name, url: `${site.origin}/` };
  const image = { ...share.image, alt: share.image.alt || name };
  return (
    <PageMeta
      title={name}
      description={opening || t("reader.shareLine", { number, title, site: site.name })}
      path={path}
      type="article"
      image={image}
      jsonLd={graph([
        chapterData({
          name: title,
          position: number,
          url: absolute(site.origin, path),
          book,
          datePublished: share.published,
          image: absolute(site.origin, image.url),
          free: share.status === "free",
        }),
        breadcrumbs([
          { name: site.name, url: book.url },
          { name: t("reader.toc"), url: `${site.origin}/toc` },
          { name, url: absolute(site.origin, path) },
        ]),
      ])}
    />
  );
}
