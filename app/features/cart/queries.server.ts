import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db } from "#db/client.server";
import { cartItems, galleryItems, products, users } from "#db/schema";
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from "./limits";
import { type CartLine, mergeLines } from "./lines";

/** A cart line as the server prices it: name, unit price and stock from the database, never from a request. */
export type PricedLine = CartLine & {
  name: string;
  variantLabel: string | null;
  unitPriceCents: number;
  currency: string;
  membershipDays: number;
  stock: number;
  imageUrl: string;
  requiresShipping: boolean;
  offersDedication: boolean;
};

/** Why a line cannot be bought as it stands. */
export type LineProblem =
  | "unknown-product"
  | "not-for-sale"
  | "variant-required"
  | "unknown-variant"
  | "sold-out"
  | "over-stock";

/**
 * Prices a cart against the database. Lines whose product, variant or price does not hold are returned with
 * their problem instead, so the caller decides: the cart bar skips them, checkout refuses them.
 */
export async function priceLines(
  lines: CartLine[],
): Promise<{ priced: PricedLine[]; problems: { line: CartLine; problem: LineProblem }[] }> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const variantIds = [...new Set(lines.flatMap((line) => (line.variantId === null ? [] : [line.variantId])))];
  const found = productIds.length
    ? await db().select().from(products).where(inArray(products.id, productIds))
    : [];
  const pieces = variantIds.length
    ? await db()
        .select({ id: galleryItems.id, title: galleryItems.title })
        .from(galleryItems)
        .where(inArray(galleryItems.id, variantIds))
    : [];
  const priced: PricedLine[] = [];
  const problems: { line: CartLine; problem: LineProblem }[] = [];
  for (const line of lines) {
    const product = found.find((p) => p.id === line.productId);
    const piece = pieces.find((p) => p.id === line.variantId);
    let problem: LineProblem | undefined;
    if (!product) problem = "unknown-product";
    else if (product.priceCents <= 0) problem = "not-for-sale";
    else if (product.variantKind && line.variantId === null) problem = "variant-required";
    else if (line.variantId !== null && (!product.variantKind || !piece)) problem = "unknown-variant";
    else if (product.stock <= 0) problem = "sold-out";
    else if (line.quantity > product.stock) problem = "over-stock";
    if (problem || !product) {
      problems.push({ line, problem: problem ?? "unknown-product" });
      continue;
    }
    priced.push({
      ...line,
      name: product.name,
      variantLabel: piece?.title ?? null,
      unitPriceCents: product.priceCents,
      currency: product.currency,
      membershipDays: product.membershipDays,
      stock: product.stock,
      imageUrl: product.imageUrl,
      requiresShipping: product.requiresShipping,
      offersDedication: product.offersDedication,
    });
  }
  return { priced, problems };
}

/** A signed-in reader's cart, oldest line first. */
export async function getCart(userId: number): Promise<CartLine[]> {
  return db()
    .select({ productId: cartItems.productId, variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.id))
    .limit(MAX_CART_LINES);
}

/**
 * Changes a signed-in reader's cart: `change` gets the stored lines and returns the new ones, which replace
 * them. One transaction holding the reader's row, so two tabs (or a sign-in merge and an add) never both
 * read the old cart and then write over each other or race on the unique index. `change` must be pure:
 * whatever it needs from the database is read before.
 */
export async function updateCart(
  userId: number,
  change: (lines: CartLine[]) => CartLine[],
): Promise<CartLine[]> {
  return db().transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const stored = await tx
      .select({
        productId: cartItems.productId,
        variantId: cartItems.variantId,
        quantity: cartItems.quantity,
      })
      .from(cartItems)
      .where(eq(cartItems.userId, userId))
      .orderBy(asc(cartItems.id))
      .limit(MAX_CART_LINES);
    const lines = change(stored).slice(0, MAX_CART_LINES);
    await tx.delete(cartItems).where(eq(cartItems.userId, userId));
    if (lines.length)
      await tx.insert(cartItems).values(
        lines.map((line) => ({
          userId,
          productId: line.productId,
          variantId: line.variantId,
          quantity: Math.min(line.quantity, MAX_LINE_QUANTITY),
        })),
      );
    return lines;
  });
}

/** Writes a signed-in reader's cart as `lines`: lines not in it are deleted, the others written. */
export async function saveCart(userId: number, lines: CartLine[]): Promise<void> {
  await updateCart(userId, () => lines);
}

export async function clearCart(userId: number): Promise<void> {
  await db().delete(cartItems).where(eq(cartItems.userId, userId));
}

/** The stock left of each product, to cap quantities (a product not found caps at 0). */
export async function stockOf(productIds: number[]): Promise<Map<number, number>> {
  if (!productIds.length) return new Map();
  const rows = await db()
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(and(inArray(products.id, productIds), sql`${products.priceCents} > 0`));
  return new Map(rows.map((row) => [row.id, row.stock]));
}

/** Merges a visitor's cart into the reader's stored cart at sign-in (quantities added, capped by stock and 5). */
export async function mergeIntoCart(userId: number, visitorLines: CartLine[]): Promise<CartLine[]> {
  if (!visitorLines.length) return getCart(userId);
  const stock = await stockOf([...new Set(visitorLines.map((line) => line.productId))]);
  return updateCart(userId, (stored) =>
    mergeLines(stored, visitorLines, (line) => stock.get(line.productId) ?? 0),
  );
}
