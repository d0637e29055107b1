import { z } from "zod";
import { violatedForeignKey } from "~/lib/db-errors";
import { AppError } from "~/lib/errors";
import { readForm } from "~/lib/forms";
import { INT32_MAX } from "~/lib/parse";
import { readCookies } from "~/lib/preferences.server";
import { refererPath, safeRedirectPath } from "~/lib/redirect";
import { cartCookie, readCartCookie } from "./cookie.server";
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from "./limits";
import { addLine, type CartLine, itemCount, removeLine, sameItem, setQuantity } from "./lines";
import { getCart, type LineProblem, priceLines, updateCart } from "./queries.server";
import type { CartReply, CartSummary } from "./summary";

export type CartRefusal = LineProblem | "invalid" | "cart-full";

/** A cart change the request may not make (ADR 24): answered 4xx with a translated message, nothing changed. */
export class CartRefused extends AppError {
  constructor(readonly reason: CartRefusal) {
    super(`cart.${reason}`, reason === "unknown-product" ? 404 : 400, `cart.errors.${reason}`);
  }
}

const id = z.number().int().min(1).max(INT32_MAX);
const idText = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(id);
const item = {
  productId: idText,
  /** Empty (or absent) for a product without variants. */
  variantId: z
    .union([z.literal("").transform(() => null), idText])
    .optional()
    .transform((v) => v ?? null),
};
const quantity = z
  .string()
  .regex(new RegExp(`^[1-${MAX_LINE_QUANTITY}]$`))
  .transform(Number);

/** The cart form's fields (docs/product-rules.md "Cart"); other fields (redirectTo) are the route's. */
export const cartIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), ...item, quantity }),
  z.object({ intent: z.literal("set"), ...item, quantity }),
  z.object({ intent: z.literal("remove"), ...item }),
  z.object({ intent: z.literal("clear") }),
]);
export type CartIntent = z.output<typeof cartIntentSchema>;

export function parseCartIntent(form: FormData): CartIntent {
  const values = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  const parsed = cartIntentSchema.safeParse(values);
  if (!parsed.success) throw new CartRefused("invalid");
  return parsed.data;
}

/**
 * The most of `line` the cart may hold: the product must exist, be for sale, have the variant it needs (a
 * gallery piece for the Art Print) and the stock for the quantity asked. Read from the database, never the
 * request; refused otherwise.
 */
async function limitFor(line: CartLine): Promise<number> {
  const { priced, problems } = await priceLines([line]);
  const problem = problems[0]?.problem;
  if (problem) throw new CartRefused(problem);
  return Math.min(MAX_LINE_QUANTITY, priced[0]?.stock ?? 0);
}

/** The pure change an intent makes to a cart, with the limit checked for the product (`add` and `set`). */
function change(intent: CartIntent, limit: number): (lines: CartLine[]) => CartLine[] {
  return (lines) => {
    switch (intent.intent) {
      case "add": {
        const known = lines.some((line) => sameItem(line, intent));
        if (!known && lines.length >= MAX_CART_LINES) throw new CartRefused("cart-full");
        return addLine(lines, intent, limit);
      }
      case "set":
        return setQuantity(lines, intent, intent.quantity, limit);
      case "remove":
        return removeLine(lines, intent);
      case "clear":
        return [];
    }
  };
}

/** Whose cart a request changes: a signed-in reader's (stored) or a visitor's (the `cart` cookie). */
export type CartOwner = { userId: number } | { userId: undefined; request: Request };

/**
 * Applies a cart form to the owner's cart. A signed-in reader's is changed in the database; a visitor's comes
 * back as the Set-Cookie header of the new cart. Throws CartRefused (4xx) with nothing changed.
 */
export async function applyCartIntent(
  owner: CartOwner,
  form: FormData,
): Promise<{ lines: CartLine[]; setCookie?: string }> {
  const intent = parseCartIntent(form);
  const limit =
    intent.intent === "add" || intent.intent === "set" ? await limitFor(intent) : MAX_LINE_QUANTITY;
  if (owner.userId !== undefined) {
    try {
      return { lines: await updateCart(owner.userId, change(intent, limit)) };
    } catch (error) {
      // The gallery piece chosen was deleted (admin) since it was checked: the foreign key refused the line.
      if (violatedForeignKey(error) === "cart_items_variant_id_gallery_items_id_fk")
        throw new CartRefused("unknown-variant");
      throw error;
    }
  }
  const lines = change(intent, limit)(readCartCookie(readCookies(owner.request)));
  return { lines, setCookie: cartCookie(lines) };
}

/**
 * One cart form, answered either way (ADR 24): the reply (the new item count, or the refusal's message key),
 * its status, the visitor's new cart cookie and the page to go back to (`redirectTo`, else the page that
 * sent the form, else the shop). A refusal changes nothing.
 */
export async function answerCartForm(
  request: Request,
  userId: number | undefined,
): Promise<{ reply: CartReply; status: number; headers?: HeadersInit; back: string }> {
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo") || refererPath(request), "/shop");
  try {
    const { lines, setCookie } = await applyCartIntent(
      userId === undefined ? { userId, request } : { userId },
      form,
    );
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    return { reply: { ok: true, count: itemCount(lines) }, status: 200, headers, back };
  } catch (error) {
    if (!(error instanceof CartRefused)) throw error;
    return { reply: { ok: false, error: error.messageKey, back }, status: error.status, back };
  }
}

/** The viewer's cart lines: the stored cart of a signed-in reader, else the visitor's cookie. */
export async function viewerCart(userId: number | undefined, request: Request): Promise<CartLine[]> {
  return userId === undefined ? readCartCookie(readCookies(request)) : getCart(userId);
}

/** The cart bar's figures, or null for an empty cart (or one whose lines no longer hold). */
export async function cartSummary(lines: CartLine[]): Promise<CartSummary | null> {
  if (!lines.length) return null;
  const { priced } = await priceLines(lines);
  const currency = priced[0]?.currency;
  if (!currency) return null;
  // One currency per cart (the catalogue's); a line in another would be checkout's to refuse.
  const counted = priced.filter((line) => line.currency === currency);
  return {
    count: itemCount(counted),
    totalCents: counted.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
    currency,
  };
}
