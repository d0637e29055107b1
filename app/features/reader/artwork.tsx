import { type Picture, PICTURE_SIZES as SIZES } from "~/features/uploads/picture";

type ArtworkItem = { url: string; position: string; caption: string; picture?: Picture };

/**
 * The chapter's artwork for one side of the text, with captions. The first image before the text loads first.
 * An uploaded image comes as a `<picture>` (AVIF, WebP, then its own format, each in its widths) with its own
 * width and height; an image given by address only keeps the 2:1 frame it was drawn for. The same markup as
 * the shop's `UploadedImage`, written out here on purpose: shared, it became a chunk of its own on the chapter
 * page, 0.2 KB over the page's 100 KB JavaScript budget (ADR 30, ADR 41).
 */
export function Artwork({
  items,
  position,
  lang,
}: {
  items: ArtworkItem[];
  position: "before" | "after";
  /** The captions' language, when not the page's (the original shown untranslated). */
  lang?: string;
}) {
  return items
    .filter((art) => art.position === position)
    .map(({ url, caption, picture }, index) => (
      <figure key={url} lang={lang} className={position === "before" ? "mb-8" : "mt-8"}>
        <picture>
          {picture?.sources.map((source) => (
            <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={SIZES} />
          ))}
          <img
            src={picture?.src ?? url}
            srcSet={picture?.fallbackSrcSet}
            sizes={picture && SIZES}
            alt={caption}
            width={picture?.width ?? 1200}
            height={picture?.height ?? 600}
            className="h-auto w-full rounded-xl"
            {...(position === "before" && index === 0
              ? { fetchPriority: "high" as const }
              : { loading: "lazy" as const })}
          />
        </picture>
        {caption ? (
          <figcaption className="mt-2 text-center text-sm text-muted italic">{caption}</figcaption>
        ) : null}
      </figure>
    ));
}
