import { asc, eq, ne } from "drizzle-orm";
import { db } from "#db/client.server";
import { products } from "#db/schema";
import { picturesOfUrls } from "~/features/uploads/store.server";

type ProductRow = typeof products.$inferSelect;

/** Products with the picture of their image where it is an upload (its formats and widths: ADR 38). */
async function withPictures(rows: ProductRow[]) {
  const pictureOf = await picturesOfUrls(
    db(),
    rows.map((row) => row.imageUrl),
  );
  return rows.map((row) => ({ ...row, picture: pictureOf(row.imageUrl) }));
}

export async function listProducts() {
  return withPictures(await db().select().from(products).orderBy(asc(products.id)));
}

export async function getProduct(id: number) {
  const [product] = await withPictures(await db().select().from(products).where(eq(products.id, id)));
  return product;
}

/** Up to `limit` other products, those of the same category first. */
export async function getRelatedProducts(product: { id: number; category: string }, limit = 3) {
  const others = await db()
    .select()
    .from(products)
    .where(ne(products.id, product.id))
    .orderBy(asc(products.id));
  return withPictures(
    others
      .sort((a, b) => Number(b.category === product.category) - Number(a.category === product.category))
      .slice(0, limit),
  );
}
