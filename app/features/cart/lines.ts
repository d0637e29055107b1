import { z } from "zod";
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from "./limits";

/**
 * A cart line (docs/product-rules.md "Cart"): a product, the chosen variant (null when it has none) and how
 * many. Only ids and quantities: prices, names and stock always come from the database.
 */
export type CartLine = { productId: number; variantId: number | null; quantity: number };

const id = z.number().int().positive().max(2_147_483_647);

export const cartLineSchema = z.object({
  productId: id,
  variantId: id.nullable(),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
});

export const cartLinesSchema = z.array(cartLineSchema).max(MAX_CART_LINES);

export function sameItem(a: Omit<CartLine, "quantity">, b: Omit<CartLine, "quantity">): boolean {
  return a.productId === b.productId && a.variantId === b.variantId;
}

/** Quantity kept within 1 to `limit` (the smaller of 5 and the stock left); 0 or less means "remove". */
function clamp(quantity: number, limit: number): number {
  return Math.min(quantity, limit, MAX_LINE_QUANTITY);
}

/**
 * Adds `quantity` of an item: an item already in the cart (same product and variant) has its quantity
 * raised, capped by `limit`. A new item past MAX_CART_LINES is not added.
 */
export function addLine(lines: CartLine[], item: CartLine, limit = MAX_LINE_QUANTITY): CartLine[] {
  const existing = lines.find((line) => sameItem(line, item));
  if (existing) return setQuantity(lines, item, existing.quantity + item.quantity, limit);
  if (lines.length >= MAX_CART_LINES) return lines;
  const quantity = clamp(item.quantity, limit);
  return quantity > 0 ? [...lines, { ...item, quantity }] : lines;
}

/** Sets an item's quantity; 0 or less removes it (docs/product-rules.md "Cart"). */
export function setQuantity(
  lines: CartLine[],
  item: Omit<CartLine, "quantity">,
  quantity: number,
  limit = MAX_LINE_QUANTITY,
): CartLine[] {
  const next = clamp(quantity, limit);
  if (next <= 0) return removeLine(lines, item);
  return lines.map((line) => (sameItem(line, item) ? { ...line, quantity: next } : line));
}

export function removeLine(lines: CartLine[], item: Omit<CartLine, "quantity">): CartLine[] {
  return lines.filter((line) => !sameItem(line, item));
}

/** Two carts as one (sign-in): quantities of the same item added, each capped by `limitOf` the item. */
export function mergeLines(
  into: CartLine[],
  from: CartLine[],
  limitOf: (line: CartLine) => number = () => MAX_LINE_QUANTITY,
): CartLine[] {
  return from.reduce((lines, line) => addLine(lines, line, limitOf(line)), into);
}

export function itemCount(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}
