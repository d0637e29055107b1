/** What the cart bar shows: the item count and the total at today's prices (ADR 24). */
export type CartSummary = { count: number; totalCents: number; currency: string };

/** What POST /cart/reply answers (JSON): the new item count, or the refusal's message key. */
export type CartReply = { ok: true; count: number } | { ok: false; error: string; back: string };

/** A priced cart line as the cart's pages show it (features/cart/queries.server.ts prices it). */
export type CartLineView = {
  productId: number;
  variantId: number | null;
  quantity: number;
  name: string;
  variantLabel: string | null;
  unitPriceCents: number;
  currency: string;
  stock: number;
};
