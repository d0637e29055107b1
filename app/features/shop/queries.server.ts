import { asc, eq, ne } from "drizzle-orm";
import { db } from "#db/client.server";
import { products } from "#db/schema";

export async function listProducts() {
  return db().select().from(products).orderBy(asc(products.id));
}

export async function getProduct(id: number) {
  const [product] = await db().select().from(products).where(eq(products.id, id));
  return product;
}

/** Up to `limit` other products, those of the same category first. */
export async function getRelatedProducts(product: { id: number; category: string }, limit = 3) {
  const others = await db()
    .select()
    .from(products)
    .where(ne(products.id, product.id))
    .orderBy(asc(products.id));
  return others
    .sort((a, b) => Number(b.category === product.category) - Number(a.category === product.category))
    .slice(0, limit);
}
