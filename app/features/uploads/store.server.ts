import { desc, eq, inArray } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { type UploadVariant, uploads } from "#db/schema";
import type { MediaStore } from "~/lib/storage.server";
import { type ProcessedImage, processImage, type UploadRefusal } from "./images.server";
import { uploadPrefix } from "./keys";
import { type Picture, pictureOf, uploadHashOf } from "./picture";

/**
 * Writes a processed upload's variants under `uploads/<hash>/<width>.<ext>`. The same file uploaded twice
 * has the same keys, and a key already holding its variant is not written again: it is stored once.
 */
export async function storeUpload(
  store: MediaStore,
  image: ProcessedImage,
): Promise<{ prefix: string; variants: UploadVariant[]; written: number }> {
  const prefix = uploadPrefix(image.hash);
  let written = 0;
  const variants: UploadVariant[] = [];
  for (const { name, data, format, contentType, width, height, bytes } of image.variants) {
    const key = `${prefix}${name}`;
    const present = await store.head(key);
    if (present?.bytes !== bytes && (await store.put(key, data, contentType))) written++;
    variants.push({ key, format, contentType, width, height, bytes });
  }
  return { prefix, variants, written };
}

export type UploadRow = typeof uploads.$inferSelect;

/** What else an upload's options may ask: who made it, and what to write with its row when it is new. */
export type UploadOptions = {
  filename?: string;
  createdBy?: number | null;
  /** Run in the transaction that inserts a new row (the admin's audit entry), never for a file already there. */
  onCreated?: (tx: Pick<Database, "insert">, upload: UploadRow) => Promise<void>;
};

/**
 * Stores the variants and records the upload; the same file again returns its first row (and who first
 * uploaded it), writing nothing new. The files go first: a row never points at variants not stored.
 */
export async function saveUpload(
  database: Database,
  store: MediaStore,
  image: ProcessedImage,
  options: Omit<UploadOptions, "filename"> = {},
): Promise<{ upload: UploadRow; created: boolean }> {
  const { prefix, variants } = await storeUpload(store, image);
  const inserted = await database.transaction(async (tx) => {
    const [row] = await tx
      .insert(uploads)
      .values({
        hash: image.hash,
        keyPrefix: prefix,
        originalFilename: image.filename,
        contentType: `image/${image.format}`,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        variants,
        createdBy: options.createdBy ?? null,
      })
      .onConflictDoNothing({ target: uploads.hash })
      .returning();
    if (row) await options.onCreated?.(tx, row);
    return row;
  });
  if (inserted) return { upload: inserted, created: true };
  const [existing] = await database.select().from(uploads).where(eq(uploads.hash, image.hash));
  if (!existing) throw new Error("upload row vanished between its insert and its read");
  return { upload: existing, created: false };
}

/**
 * The whole upload, as the admin's action calls it: the bytes checked and re-encoded, then stored and
 * recorded; a refusal stores nothing and records nothing.
 */
export async function uploadImage(
  database: Database,
  store: MediaStore,
  bytes: Uint8Array,
  options: UploadOptions = {},
): Promise<UploadRefusal | { ok: true; upload: UploadRow; created: boolean }> {
  const processed = await processImage(bytes, { filename: options.filename });
  if (!processed.ok) return processed;
  return { ok: true, ...(await saveUpload(database, store, processed, options)) };
}

export const UPLOADS_LISTED = 50;

/** The newest uploads, for the admin's media page: each with its sizes and who uploaded it. */
export async function listUploads(database: Database) {
  const rows = await database
    .select({
      id: uploads.id,
      originalFilename: uploads.originalFilename,
      width: uploads.width,
      height: uploads.height,
      bytes: uploads.bytes,
      variants: uploads.variants,
      createdAt: uploads.createdAt,
    })
    .from(uploads)
    .orderBy(desc(uploads.id))
    .limit(UPLOADS_LISTED);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** The pictures of the uploads these image addresses name (one query; none when none is an upload's). */
export async function picturesOfUrls(
  database: Database,
  urls: string[],
): Promise<(url: string) => Picture | undefined> {
  const pictures = await picturesByHash(
    database,
    urls.flatMap((url) => uploadHashOf(url) ?? []),
  );
  return (url) => pictures.get(uploadHashOf(url) ?? "");
}

/** The pictures of the uploads with these hashes (one query; none for an empty list). */
export async function picturesByHash(database: Database, hashes: string[]): Promise<Map<string, Picture>> {
  const pictures = new Map<string, Picture>();
  if (hashes.length === 0) return pictures;
  const rows = await database
    .select({ hash: uploads.hash, width: uploads.width, height: uploads.height, variants: uploads.variants })
    .from(uploads)
    .where(inArray(uploads.hash, [...new Set(hashes)]));
  for (const row of rows) {
    const picture = pictureOf(row);
    if (picture) pictures.set(row.hash, picture);
  }
  return pictures;
}
