import { describe, expect, it } from "vitest";
import { MAX_CART_LINES } from "./limits";
import { addLine, type CartLine, itemCount, mergeLines, removeLine, setQuantity } from "./lines";

const bookmark = { productId: 1, variantId: null };
const print = (piece: number) => ({ productId: 3, variantId: piece });

describe('cart lines (docs/product-rules.md "Cart")', () => {
  it("adding the same product and variant raises its quantity; another variant is another line", () => {
    let lines: CartLine[] = [];
    lines = addLine(lines, { ...print(5), quantity: 1 });
    lines = addLine(lines, { ...print(5), quantity: 1 });
    lines = addLine(lines, { ...print(7), quantity: 1 });
    lines = addLine(lines, { ...bookmark, quantity: 1 });
    expect(lines).toEqual([
      { ...print(5), quantity: 2 },
      { ...print(7), quantity: 1 },
      { ...bookmark, quantity: 1 },
    ]);
    expect(itemCount(lines)).toBe(4);
  });

  it("never holds more than 5 of a line, nor more than the stock", () => {
    expect(addLine([{ ...bookmark, quantity: 4 }], { ...bookmark, quantity: 3 })).toEqual([
      { ...bookmark, quantity: 5 },
    ]);
    expect(addLine([], { ...bookmark, quantity: 4 }, 2)).toEqual([{ ...bookmark, quantity: 2 }]);
    expect(setQuantity([{ ...bookmark, quantity: 1 }], bookmark, 9, 3)).toEqual([
      { ...bookmark, quantity: 3 },
    ]);
  });

  it("setting 0 or less removes the line; a sold-out product (limit 0) is never added", () => {
    expect(setQuantity([{ ...bookmark, quantity: 2 }], bookmark, 0)).toEqual([]);
    expect(setQuantity([{ ...bookmark, quantity: 2 }], bookmark, -3)).toEqual([]);
    expect(addLine([], { ...bookmark, quantity: 1 }, 0)).toEqual([]);
  });

  it("removes only the named product and variant", () => {
    const lines = [
      { ...print(5), quantity: 1 },
      { ...print(7), quantity: 2 },
    ];
    expect(removeLine(lines, print(5))).toEqual([{ ...print(7), quantity: 2 }]);
    expect(removeLine(lines, bookmark)).toEqual(lines);
  });

  it("adds no new line past MAX_CART_LINES", () => {
    const full = Array.from({ length: MAX_CART_LINES }, (_, i) => ({
      productId: i + 10,
      variantId: null,
      quantity: 1,
    }));
    expect(addLine(full, { ...bookmark, quantity: 1 })).toBe(full);
  });

  it("merges two carts with quantities added, each capped by its limit", () => {
    const stored = [{ ...bookmark, quantity: 4 }];
    const visitor = [
      { ...bookmark, quantity: 3 },
      { ...print(5), quantity: 2 },
      { productId: 4, variantId: null, quantity: 2 },
    ];
    const limits = new Map([
      [1, 5],
      [3, 80],
      [4, 1],
    ]);
    expect(mergeLines(stored, visitor, (line) => limits.get(line.productId) ?? 0)).toEqual([
      { ...bookmark, quantity: 5 },
      { ...print(5), quantity: 2 },
      { productId: 4, variantId: null, quantity: 1 },
    ]);
  });
});
