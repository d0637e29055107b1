import { type Zippable, zipSync } from "fflate";

/** A file of the book, by its path in the container. */
export type EpubFile = { path: string; data: Uint8Array | string };

const encoder = new TextEncoder();
/** Compressed formats gain nothing from another deflate: stored as they are. */
const STORED = /\.(png|jpe?g|gif|webp)$/i;

/**
 * The OCF container (a ZIP) of the files, as EPUB 3 wants it: `mimetype` first, stored uncompressed with no
 * extra field, then `META-INF/container.xml` and the rest (deflated, images stored).
 */
export function zipEpub(files: EpubFile[]): Uint8Array<ArrayBuffer> {
  const entries: Zippable = {
    mimetype: [encoder.encode("application/epub+zip"), { level: 0 }],
  };
  for (const file of files) {
    const data = typeof file.data === "string" ? encoder.encode(file.data) : file.data;
    entries[file.path] = [data, { level: STORED.test(file.path) ? 0 : 6 }];
  }
  // fflate writes the entries in the object's order (string keys keep their insertion order).
  // Backed by an ArrayBuffer of its own (fflate types it loosely): a Response's body as it is.
  return zipSync(entries) as Uint8Array<ArrayBuffer>;
}
