import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cartCookie, formatCartValue, parseCartValue, readCartCookie } from "./cookie.server";
import { MAX_CART_LINES } from "./limits";
import { type CartLine, cartLinesSchema } from "./lines";

const line = fc.record({
  productId: fc.integer({ min: 1, max: 2_147_483_647 }),
  variantId: fc.option(fc.integer({ min: 1, max: 2_147_483_647 }), { nil: null }),
  quantity: fc.integer({ min: 1, max: 5 }),
});
const cart = fc.uniqueArray(line, {
  maxLength: MAX_CART_LINES,
  selector: (l) => `${l.productId}.${l.variantId}`,
});

describe("the cart cookie", () => {
  it("reads back every cart it writes", () => {
    fc.assert(
      fc.property(cart, (lines) => {
        expect(parseCartValue(formatCartValue(lines))).toEqual(lines);
      }),
      { numRuns: 300 },
    );
  });

  it("holds the compact form: product.variant x quantity", () => {
    const lines: CartLine[] = [
      { productId: 3, variantId: 5, quantity: 2 },
      { productId: 1, variantId: null, quantity: 1 },
    ];
    expect(formatCartValue(lines)).toBe("3.5x2-1x1");
    expect(readCartCookie(new Map([["cart", "3.5x2-1x1"]]))).toEqual(lines);
  });

  it.each([
    ["", "empty"],
    ["1x0", "quantity 0"],
    ["1x6", "quantity above 5"],
    ["0x1", "product 0"],
    ["1.0x1", "variant 0"],
    ["2147483648x1", "past int4"],
    ["1x1-1x2", "the same item twice"],
    ["1x1,2x1", "another separator"],
    ["1x1-", "a trailing separator"],
    [" 1x1", "a space"],
    ["1x1x1", "two quantities"],
    ["-1x1", "a sign"],
    [Array.from({ length: MAX_CART_LINES + 1 }, (_, i) => `${i + 1}x1`).join("-"), "too many lines"],
    ["1x1-".repeat(400), "too long"],
  ])("reads %j (%s) as an empty cart", (value) => {
    expect(parseCartValue(value)).toEqual([]);
  });

  it("never throws and only ever yields a valid cart (fuzzed)", () => {
    const pieces = fc.constantFrom("1", "3", ".", "x", "-", "5", "0", "9999999999", ",", "%", "\u0000", "é");
    const value = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(value, (text) => {
        const lines = parseCartValue(text);
        expect(cartLinesSchema.safeParse(lines).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("is readable by the page, Lax, for 30 days, and removed when the cart is empty", () => {
    const cookie = cartCookie([{ productId: 1, variantId: null, quantity: 2 }]);
    expect(cookie).toBe("cart=1x2; Path=/; SameSite=Lax; Max-Age=2592000");
    expect(cookie).not.toContain("HttpOnly");
    expect(cartCookie([])).toBe("cart=; Path=/; SameSite=Lax; Max-Age=0");
  });
});
