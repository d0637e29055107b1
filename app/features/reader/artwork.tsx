import { type Picture, PICTURE_SIZES as SIZES } from "~/features/uploads/picture";
import { UploadedImage } from "~/features/uploads/uploaded-image";

type ArtworkItem = { url: string; position: string; caption: string; picture?: Picture };

/**
 * The chapter's artwork for one side of the text, with captions. The first image before the text loads first.
 * An uploaded image comes as a `<picture>` (AVIF, WebP, then its own format, each in its widths) with its own
 * width and height; an image given by address only keeps the 2:1 frame it was drawn for.
 */
export function Artwork({ items, position }: { items: ArtworkItem[]; position: "before" | "after" }) {
  return items
    .filter((art) => art.position === position)
    .map(({ url, caption, picture }, index) => (
      <figure key={url} className={position === "before" ? "mb-8" : "mt-8"}>
        <UploadedImage
          src={url}
          picture={picture}
          sizes={SIZES}
          alt={caption}
          width={1200}
          height={600}
          className="h-auto w-full rounded-xl"
          {...(position === "before" && index === 0
            ? { fetchPriority: "high" as const }
            : { loading: "lazy" as const })}
        />
        {caption ? (
          <figcaption className="mt-2 text-center text-sm text-muted italic">{caption}</figcaption>
        ) : null}
      </figure>
    ));
}
