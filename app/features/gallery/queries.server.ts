import { asc, desc } from "drizzle-orm";
import { db } from "#db/client.server";
import { galleryItems } from "#db/schema";
import { picturesOfUrls } from "~/features/uploads/store.server";

/**
 * The gallery in its order, each piece with the picture of its image when it is an upload (its sizes and
 * formats: ADR 38); an imported address has none and is shown as it is.
 */
export async function listGalleryItems() {
  const items = await db()
    .select()
    .from(galleryItems)
    .orderBy(asc(galleryItems.sortOrder), desc(galleryItems.createdAt));
  const pictureOf = await picturesOfUrls(
    db(),
    items.map((item) => item.imageUrl),
  );
  return items.map((item) => ({ ...item, picture: pictureOf(item.imageUrl) }));
}
