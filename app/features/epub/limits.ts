import type { Rule } from "~/features/auth/throttle.server";

/**
 * The EPUB download's bounds (ADR 89). An image past `imageBytes` is left out (its description stays), and
 * once a book holds `imagesBytes` of images the rest are left out too; a finished file past `fileBytes` is
 * refused (the serial is then downloaded volume by volume). The kept files take `cacheBytes` at most.
 */
export const EPUB_LIMITS = {
  imageBytes: 8 * 1024 * 1024,
  imagesBytes: 48 * 1024 * 1024,
  fileBytes: 96 * 1024 * 1024,
  cacheBytes: 64 * 1024 * 1024,
} as const;

/**
 * Downloads one reader (or one address, for visitors) may ask for in an hour: far beyond a reader taking
 * their books along, and a bound on the builds a flood of changed accounts could cause.
 */
export const epubDownloadRule: Rule = { limit: 30, windowSeconds: 60 * 60, blockSeconds: 10 * 60 };
