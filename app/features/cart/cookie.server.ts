import { getEnv } from "~/lib/env.server";
import { MAX_CART_LINES } from "./limits";
import { type CartLine, cartLinesSchema, sameItem } from "./lines";

/**
 * A visitor's cart, kept in one cookie (ADR 24) so the server renders it and every cart form works without
 * JavaScript. The value is `productId[.variantId]xQuantity` per line, lines joined by `-`
 * (`3.5x2-1x1`): only characters a cookie value may hold, so no encoding. Only ids and quantities travel;
 * prices, names and stock always come from the database (docs/product-rules.md "Cart").
 */
export const CART_COOKIE = "cart";

/** 20 lines of the longest form (`2147483647.2147483647x5`) fit in about 480 characters: a bound, not a goal. */
const MAX_VALUE_LENGTH = 1024;
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const LINE = /^(\d{1,10})(?:\.(\d{1,10}))?x(\d)$/;

/**
 * The lines a cookie value holds, or an empty cart when anything about it is off (too long, a bad line, a
 * repeated item, out of range): a cart cookie is never trusted to be well formed, and never makes an error.
 */
export function parseCartValue(value: string | undefined): CartLine[] {
  if (!value || value.length > MAX_VALUE_LENGTH) return [];
  const parts = value.split("-");
  if (parts.length > MAX_CART_LINES) return [];
  const lines: CartLine[] = [];
  for (const part of parts) {
    const match = LINE.exec(part);
    if (!match) return [];
    const line = {
      productId: Number(match[1]),
      variantId: match[2] === undefined ? null : Number(match[2]),
      quantity: Number(match[3]),
    };
    if (lines.some((other) => sameItem(other, line))) return [];
    lines.push(line);
  }
  const parsed = cartLinesSchema.safeParse(lines);
  return parsed.success ? parsed.data : [];
}

export function formatCartValue(lines: CartLine[]): string {
  return lines
    .slice(0, MAX_CART_LINES)
    .map((line) => `${line.productId}${line.variantId === null ? "" : `.${line.variantId}`}x${line.quantity}`)
    .join("-");
}

/** The Set-Cookie header that stores `lines`; an empty cart removes the cookie (so the visitor's pages are shared again). */
export function cartCookie(lines: CartLine[]): string {
  const value = formatCartValue(lines);
  const parts = [
    `${CART_COOKIE}=${value}`,
    "Path=/",
    "SameSite=Lax",
    `Max-Age=${value ? MAX_AGE_SECONDS : 0}`,
  ];
  if (getEnv().origin.startsWith("https:")) parts.push("Secure");
  return parts.join("; ");
}

export function readCartCookie(cookies: Map<string, string>): CartLine[] {
  return parseCartValue(cookies.get(CART_COOKIE));
}
