import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import { I18nProvider } from "~/i18n/react";
import { CartLines } from "./cart-lines";
import type { CartLineView } from "./summary";

function render(lines: CartLineView[]) {
  const Stub = createRoutesStub([{ path: "/checkout", Component: () => <CartLines lines={lines} /> }]);
  return renderToString(
    <I18nProvider language={"en"} catalogue={en}>
      <Stub initialEntries={["/checkout"]} />
    </I18nProvider>,
  );
}

const print: CartLineView = {
  productId: 3,
  variantId: 5,
  quantity: 2,
  name: "Art Print 11x17",
  variantLabel: "Blood Moon",
  unitPriceCents: 2500,
  currency: "USD",
  stock: 3,
};
const bookmark: CartLineView = {
  ...print,
  productId: 1,
  variantId: null,
  quantity: 1,
  name: "Bookmark Set",
  variantLabel: null,
  unitPriceCents: 1500,
  stock: 120,
};

describe("the cart's lines (for checkout)", () => {
  it("lists each priced line with Update, Remove and Clear forms posting to /cart and coming back", () => {
    const html = render([print, bookmark]);
    expect(html.match(/<form[^>]*action="\/cart"[^>]*method="post"/g)).toHaveLength(5);
    expect(html.match(/name="redirectTo" value="\/checkout"/g)).toHaveLength(5);
    expect(html).toContain("Art Print 11x17 — Blood Moon");
    expect(html).toMatch(
      /name="intent" value="set".*name="productId" value="3".*name="variantId" value="5"/s,
    );
    expect(html).toContain('name="intent" value="remove"');
    expect(html).toContain('name="intent" value="clear"');
    expect(html).toContain("$50.00");
    expect(html.replaceAll("<!-- -->", "")).toContain("Total: $65.00");
  });

  it("offers quantities 1 to the smaller of 5 and the stock", () => {
    const quantities = (html: string) =>
      [
        ...(/<select name="quantity"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? "").matchAll(/value="(\d+)"/g),
      ].map((match) => match[1]);
    expect(quantities(render([print]))).toEqual(["1", "2", "3"]);
    expect(quantities(render([bookmark]))).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("says so when the cart is empty", () => {
    expect(render([])).toContain("Your cart is empty.");
  });
});
