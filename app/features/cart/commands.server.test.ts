import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CartRefused, parseCartIntent } from "./commands.server";
import { cartLineSchema } from "./lines";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("the cart form's fields", () => {
  it("reads each intent; an empty variant is none", () => {
    expect(parseCartIntent(form({ intent: "add", productId: "3", variantId: "5", quantity: "2" }))).toEqual({
      intent: "add",
      productId: 3,
      variantId: 5,
      quantity: 2,
    });
    expect(
      parseCartIntent(form({ intent: "set", productId: "1", variantId: "", quantity: "5" })),
    ).toMatchObject({
      variantId: null,
      quantity: 5,
    });
    expect(parseCartIntent(form({ intent: "remove", productId: "1" }))).toMatchObject({ variantId: null });
    expect(parseCartIntent(form({ intent: "clear", redirectTo: "/shop" }))).toEqual({ intent: "clear" });
  });

  it("refuses anything else with CartRefused, never another error, and yields only valid lines (fuzzed)", () => {
    const value = fc.oneof(
      fc.constantFrom(
        "",
        "0",
        "1",
        "5",
        "6",
        "-1",
        "1.5",
        "2147483647",
        "2147483648",
        "99999999999",
        " 1",
        "1e3",
      ),
      fc.string({ maxLength: 30 }),
    );
    const fields = fc.record(
      {
        intent: fc.oneof(
          fc.constantFrom("add", "set", "remove", "clear", "buy"),
          fc.string({ maxLength: 8 }),
        ),
        productId: value,
        variantId: value,
        quantity: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fields, (values) => {
        let intent: ReturnType<typeof parseCartIntent> | undefined;
        try {
          intent = parseCartIntent(form(values as Record<string, string>));
        } catch (error) {
          expect(error).toBeInstanceOf(CartRefused);
          expect((error as CartRefused).status).toBe(400);
          return;
        }
        if (intent.intent === "add" || intent.intent === "set")
          expect(cartLineSchema.safeParse(intent).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
