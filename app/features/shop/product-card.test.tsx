import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CartBar } from "~/features/cart/cart-bar";
import type { Language } from "~/i18n/config";
import en from "~/i18n/locales/en.json";
import es from "~/i18n/locales/es.json";
import fr from "~/i18n/locales/fr.json";
import ja from "~/i18n/locales/ja.json";
import { I18nProvider } from "~/i18n/react";
import type { ProductSummary } from "./catalog";
import { ProductCard, StockNote } from "./product-card";

const catalogues = { en, es, fr, ja };

function render(element: React.ReactElement, { path = "/", language = "en" as Language } = {}) {
  const Stub = createRoutesStub([{ path, Component: () => element }]);
  return renderToString(
    <I18nProvider language={language} catalogue={catalogues[language]}>
      <Stub initialEntries={[path]} />
    </I18nProvider>,
  );
}

const product = (change: Partial<ProductSummary>): ProductSummary => ({
  id: 1,
  name: "Bookmark Set (5pc)",
  priceCents: 1_500,
  currency: "USD",
  imageUrl: "/media/products/1.svg",
  membershipDays: 30,
  stock: 120,
  variantKind: null,
  ...change,
});

/** The text of a page's paragraphs, tags removed. */
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");

describe("the stock note", () => {
  it.each([
    ["en", 47, "47 in stock"],
    ["en", 10, "10 in stock"],
    ["en", 9, "Only 9 left"],
    ["en", 1, "Only 1 left"],
    ["en", 0, "Sold out"],
    ["fr", 47, "47 en stock"],
    ["es", 47, "47 disponibles"],
    ["ja", 47, "在庫47点"],
  ] as const)("in %s, a stock of %i reads %s", (language, stock, expected) => {
    expect(text(render(<StockNote stock={stock} />, { language }))).toBe(expected);
  });
});

describe("a product tile with Buy Now (home)", () => {
  it("puts one of a product sold as it is in the cart and goes on to /checkout, with a plain form", () => {
    const html = render(<ProductCard product={product({})} buyNow />);
    expect(html).toMatch(/<form(?=[^>]* method="post")[^>]* action="\/cart"/);
    expect(html).toContain('name="intent" value="add"');
    expect(html).toContain('name="quantity" value="1"');
    expect(html).toContain('name="redirectTo" value="/checkout"');
    expect(html).toMatch(/<button[^>]*aria-label="Buy Now: Bookmark Set \(5pc\)"[^>]*>Buy Now<\/button>/);
    expect(html).not.toContain(en.cart.add.button);
  });

  it("leads to the page of a product whose piece must be chosen, and to asking about one priced 0", () => {
    const print = render(<ProductCard product={product({ id: 3, variantKind: "gallery" })} buyNow />);
    expect(print).toMatch(
      /<a(?=[^>]*href="\/shop\/product\/3")[^>]*aria-label="Buy Now: Bookmark Set \(5pc\)"/,
    );
    expect(print).not.toContain("<form");
    const commission = render(<ProductCard product={product({ id: 6, priceCents: 0 })} buyNow />);
    expect(commission).toMatch(/<a[^>]*href="\/shop\/product\/6"[^>]*>Inquire<\/a>/);
  });

  it("is disabled and says so when sold out", () => {
    const html = render(<ProductCard product={product({ stock: 0 })} buyNow />);
    expect(html).toMatch(/<button[^>]* disabled=""[^>]*>Sold out<\/button>/);
  });

  it("keeps Add to cart in the shop's tiles", () => {
    const html = render(<ProductCard product={product({})} />);
    expect(html).toContain(`>${en.cart.add.button}</button>`);
    expect(html).not.toContain("Buy Now");
  });
});

describe("the cart bar", () => {
  const cart = { count: 3, totalCents: 6_500, currency: "USD" };
  it("links to the checkout from the shop's pages, not from the checkout itself", () => {
    expect(render(<CartBar cart={cart} />, { path: "/shop" })).toMatch(/<a[^>]*href="\/checkout"/);
    const atCheckout = render(<CartBar cart={cart} />, { path: "/checkout" });
    expect(atCheckout).toContain("3 items · $65.00");
    expect(atCheckout).not.toContain('href="/checkout"');
  });
});
