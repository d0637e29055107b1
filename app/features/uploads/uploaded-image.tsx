import type { ImgHTMLAttributes } from "react";
import type { Picture } from "./picture";

/**
 * An image by address, as a `<picture>` when it is an upload's (AVIF, WebP, then its own format, each in its
 * widths, the browser choosing by `sizes`, with the upload's own width and height); an image given by
 * address only keeps the `width` and `height` it was drawn for.
 */
export function UploadedImage({
  src,
  alt,
  picture,
  sizes,
  width,
  height,
  ...img
}: { src: string; alt: string; picture?: Picture; sizes: string; width: number; height: number } & Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  "src" | "alt" | "srcSet" | "sizes" | "width" | "height"
>) {
  return (
    <picture>
      {picture?.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={picture?.src ?? src}
        alt={alt}
        srcSet={picture?.fallbackSrcSet}
        sizes={picture && sizes}
        width={picture?.width ?? width}
        height={picture?.height ?? height}
        {...img}
      />
    </picture>
  );
}
