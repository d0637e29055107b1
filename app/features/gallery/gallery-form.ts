import { z } from "zod";
import {
  artworkUrl,
  digestField,
  markdownText,
  optionalInteger,
  requiredText,
  slugText,
} from "~/lib/form-fields";

/** Limits of the gallery piece form (the description in bytes of UTF-8). */
export const GALLERY_LIMITS = { slug: 80, title: 120, order: 1000, descriptionBytes: 20_000 } as const;

/**
 * The gallery piece form (browser and action). `slug` names the piece for good (new pieces only: the content
 * files and the Art Print's variants know it by it); `imageUrl` an uploaded image's address, or the address
 * the piece already had (an imported `/media/…` picture); `base` the digest of the piece as the form opened it.
 */
export const gallerySchema = z.object({
  slug: slugText(GALLERY_LIMITS.slug, "admin.gallery.errors.slug").optional(),
  title: requiredText(GALLERY_LIMITS.title, "admin.gallery.errors.title"),
  imageUrl: z
    .string({ error: "admin.gallery.errors.image" })
    .trim()
    .regex(artworkUrl, { error: "admin.gallery.errors.image" }),
  // Trimmed as the content files keep it, so an export and import give the same text back.
  descriptionMd: markdownText(GALLERY_LIMITS.descriptionBytes, "admin.gallery.errors.description").transform(
    (text) => text.trim(),
  ),
  order: optionalInteger(-GALLERY_LIMITS.order, GALLERY_LIMITS.order, "admin.gallery.errors.order").transform(
    (value) => value ?? 0,
  ),
  base: digestField.optional(),
});

export type GalleryForm = z.output<typeof gallerySchema>;
