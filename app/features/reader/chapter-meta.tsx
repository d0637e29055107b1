import { useTranslation } from "~/i18n/react";
import { useDocumentOnly } from "~/lib/document-only";
import { absolute } from "~/lib/seo";
import { breadcrumbs, chapter as chapterData, graph } from "~/lib/structured-data";
import { ClientMeta, PageMeta, useSiteFacts } from "~/ui/page-meta";
import type { ChapterShare } from "./share.server";

type ChapterMetaProps = { number: number; title: string };

/**
 * A chapter page's description, preview tags and JSON-LD (ADR 46), written by the server: in the browser
 * only their place (`ClientMeta`), so the chapter page's scripts carry none of the builders. A free
 * chapter's opening is its description, handed to the server render only (`chapterSummary`, as the text
 * is); any other chapter says its number and title only.
 */
export function ChapterMeta(props: ChapterMetaProps) {
  if (!import.meta.env.SSR) return <ClientMeta path={`/chapter/${props.number}`} jsonLd />;
  return <ServerChapterMeta {...props} />;
}

function ServerChapterMeta({ number, title }: ChapterMetaProps) {
  const { t } = useTranslation();
  const site = useSiteFacts();
  const opening = useDocumentOnly("chapterSummary");
  // Handed to the server render only, as the opening is: the route data does not carry it.
  const share: Omit<ChapterShare, "summary"> = JSON.parse(useDocumentOnly("chapterShare") ?? "null") ?? {
    status: "locked",
    image: { url: "/card/site.png", width: 1200, height: 630, alt: "" },
  };
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
