import type { UploadVariant } from "#db/schema";

/**
 * An uploaded image as a page shows it: `<picture>` with a source per modern format (every width of it,
 * the browser picks by `sizes`) and an `<img>` of the original's format, with the size that reserves its
 * space before it arrives (ADR 33).
 */
export type Picture = {
  src: string;
  width: number;
  height: number;
  sources: { type: string; srcSet: string }[];
  fallbackSrcSet: string;
};

/** The text column's width at most: the browser picks the variant for it (and the screen's density). */
export const PICTURE_SIZES = "(min-width: 48rem) 44rem, 100vw";

/** The upload's hash in a media address (`/media/uploads/<hash>/<file>`), if it is one. */
export function uploadHashOf(url: string): string | undefined {
  return /^\/media\/uploads\/([0-9a-f]{32})\/[\w.-]+$/.exec(url)?.[1];
}

const srcSet = (variants: UploadVariant[]) =>
  variants.map((variant) => `/media/${variant.key} ${variant.width}w`).join(", ");

/** The `<picture>` of an upload's variants; undefined when it has no variant in a format every browser reads. */
export function pictureOf(upload: { width: number; height: number; variants: UploadVariant[] }) {
  const fallbacks = upload.variants.filter(
    (variant) => variant.format === "png" || variant.format === "jpeg",
  );
  const largest = fallbacks.reduce<UploadVariant | undefined>(
    (widest, variant) => (!widest || variant.width > widest.width ? variant : widest),
    undefined,
  );
  if (!largest) return undefined;
  return {
    src: `/media/${largest.key}`,
    width: largest.width,
    height: largest.height,
    sources: (["avif", "webp"] as const)
      .map((format) => ({
        type: `image/${format}`,
        srcSet: srcSet(upload.variants.filter((variant) => variant.format === format)),
      }))
      .filter((source) => source.srcSet),
    fallbackSrcSet: srcSet(fallbacks),
  } satisfies Picture;
}
