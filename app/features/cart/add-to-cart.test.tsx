import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import { I18nProvider } from "~/i18n/react";
import { AddToCartForm } from "./add-to-cart";

function render(props: Parameters<typeof AddToCartForm>[0]) {
  const Stub = createRoutesStub([{ path: "/shop/product/3", Component: () => <AddToCartForm {...props} /> }]);
  return renderToString(
    <I18nProvider language={"en"} catalogue={en}>
      <Stub initialEntries={["/shop/product/3"]} />
    </I18nProvider>,
  );
}

const options = (html: string, name: string) =>
  [
    ...(new RegExp(`<select[^>]*name="${name}"[^>]*>(.*?)</select>`).exec(html)?.[1] ?? "").matchAll(
      /value="(\d*)"/g,
    ),
  ].map((match) => match[1]);

describe("the add-to-cart form", () => {
  it("is a plain POST to /cart that comes back to its page, with a quantity of 1 to the smaller of 5 and the stock", () => {
    const html = render({ productId: 1, productName: "Bookmark Set", stock: 3 });
    expect(html).toMatch(/<form[^>]* action="\/cart" method="post"/);
    expect(html).toContain('name="redirectTo" value="/shop/product/3"');
    expect(options(html, "quantity")).toEqual(["1", "2", "3"]);
    expect(options(render({ productId: 1, productName: "Bookmark Set", stock: 80 }), "quantity")).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
    expect(html).not.toMatch(/<button[^>]* disabled=""/);
  });

  it("makes the gallery piece a required choice", () => {
    const html = render({
      productId: 3,
      productName: "Art Print",
      stock: 80,
      pieces: [
        { id: 5, title: "Blood Moon" },
        { id: 7, title: "The Wall" },
      ],
    });
    expect(html).toMatch(/<select[^>]*name="variantId"[^>]*required/);
    expect(options(html, "variantId")).toEqual(["", "5", "7"]);
  });

  it("is disabled and says so when the product is sold out", () => {
    const html = render({ productId: 1, productName: "Bookmark Set", stock: 0 });
    expect(html).toMatch(/<button[^>]* disabled=""[^>]*>Sold out<\/button>/);
    expect(options(html, "quantity")).toEqual([]);
  });
});
