import { asc, desc, eq, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { cartItems, galleryItems, orderLines } from "#db/schema";
import { type AdminActor, rowEditing } from "~/features/audit/row-editing.server";
import type { GalleryForm } from "./gallery-form";

/** Every piece in the order /gallery shows them. */
export function listGalleryForAdmin() {
  return db()
    .select({
      id: galleryItems.id,
      slug: galleryItems.slug,
      title: galleryItems.title,
      imageUrl: galleryItems.imageUrl,
      sortOrder: galleryItems.sortOrder,
    })
    .from(galleryItems)
    .orderBy(asc(galleryItems.sortOrder), desc(galleryItems.createdAt));
}

/**
 * The day a new piece is added, as the content files write it (a date): an export and import give the same
 * piece back, in the same place among pieces of the same order.
 */
const today = () => new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);

const written = ({ base: _base, slug: _slug, order, ...fields }: GalleryForm) => ({
  ...fields,
  sortOrder: order,
});

/**
 * Gallery pieces from the admin ("gallery.create|update|delete" in the audit log, with of the description only
 * its size). The slug is set once (the unique index decides, races included).
 *
 * A piece something refers to is never deleted: readers' carts (the Art Print's variant, `cart_items`) and
 * order lines (`order_lines`). The row is locked `FOR UPDATE` before both are counted in one statement (one
 * snapshot): a cart line naming it waits on that lock through its foreign key (then fails, answered as a piece
 * no longer offered), and an order takes it `FOR SHARE` before its lines go in (orders/place.server.ts), so
 * neither can slip in between the count and the deletion.
 */
const pieces = rowEditing(
  {
    subject: "gallery",
    nameOf: (row) => row.title,
    unique: "gallery_items_slug_unique",
    idOf: (row) => row.id,
    logged: ({ id: _id, descriptionMd, createdAt, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      characters: descriptionMd.length,
    }),
    digested: ({ id: _id, ...row }) => row,
  },
  galleryItems,
  galleryItems.id,
  {
    written,
    created: (input: GalleryForm) =>
      input.slug ? { ...written(input), slug: input.slug, createdAt: today() } : undefined,
    refusal: async (tx, id: number) => {
      const [counts] = await tx
        .select({
          carts: sql`(select count(*) from ${cartItems} where ${cartItems.variantId} = ${id})`.mapWith(
            Number,
          ),
          orders: sql`(select count(*) from ${orderLines} where ${orderLines.variantId} = ${id})`.mapWith(
            Number,
          ),
        })
        .from(galleryItems)
        .where(eq(galleryItems.id, id));
      return counts && (counts.carts > 0 || counts.orders > 0)
        ? { message: "admin.gallery.errors.inUse", counts }
        : undefined;
    },
  },
);

export const getGalleryItemForEdit = (id: number) => pieces.forEdit(id);
export const createGalleryItem = (input: GalleryForm, actor: AdminActor) => pieces.create(input, actor);
export const saveGalleryItem = (id: number, input: GalleryForm, actor: AdminActor) =>
  pieces.save(id, input, actor);
export const deleteGalleryItem = (id: number, actor: AdminActor) => pieces.remove(id, actor);
