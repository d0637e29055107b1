import { describe, expect, it } from "vitest";
import { sharedViewer } from "./viewer.server";

const withCart = new Map([["cart", "3.5x2-1x1"]]);

describe("the page cache's viewer groups for visitors", () => {
  it.each([
    "/shop",
    "/shop/product/1",
    "/shop/product/1.data",
    "/shop.data",
    "/checkout",
    "/shop/product/6/inquire",
  ])("gives a visitor with a cart their own %s (the cart bar shows their cart)", async (pathname) => {
    expect(await sharedViewer(pathname, withCart)).toBeUndefined();
    expect(await sharedViewer(pathname, new Map())).toBe("visitor");
  });

  it.each(["/", "/toc", "/chapter/1", "/shopping", "/gallery"])(
    "shares %s with every visitor, cart or not",
    async (pathname) => {
      expect(await sharedViewer(pathname, withCart)).toBe("visitor");
    },
  );

  it("shares the shop again once the cart cookie is gone or empty", async () => {
    expect(await sharedViewer("/shop", new Map([["cart", ""]]))).toBe("visitor");
  });
});
