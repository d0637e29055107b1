import { asc, desc } from "drizzle-orm";
import { db } from "#db/client.server";
import { galleryItems } from "#db/schema";

export async function listGalleryItems() {
  return db().select().from(galleryItems).orderBy(asc(galleryItems.sortOrder), desc(galleryItems.createdAt));
}
