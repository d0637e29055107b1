import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wallTiers } from "#db/schema";
import en from "~/i18n/locales/en.json";
import { parseForm } from "~/lib/forms";
import { GIFT_MAX_CENTS, GIFT_MIN_CENTS, giftSchema, parseGiftAmount } from "./gift";
import { wallTiers as browserWallTiers } from "./wall-tiers";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}

/** Every catalogue key under a prefix, flattened. */
function keys(catalogue: object, prefix: string): Set<string> {
  const out = new Set<string>();
  const walk = (node: object, path: string) => {
    for (const [key, value] of Object.entries(node))
      if (typeof value === "string") out.add(`${path}.${key}`);
      else walk(value as object, `${path}.${key}`);
  };
  walk((catalogue as Record<string, object>)[prefix] ?? {}, prefix);
  return out;
}
const MESSAGE_KEYS = new Set([...keys(en, "gifts"), ...keys(en, "supporters")]);

describe("a typed gift amount", () => {
  it.each([
    ["12.34", 1234],
    ["12", 1200],
    ["12.3", 1230],
    ["$5", 500],
    [" 1000.00 ", 100_000],
    ["0.99", 99],
    ["007", 700],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseGiftAmount(text)).toBe(cents);
  });

  it.each([
    "",
    "12.345",
    "1e3",
    "-5",
    "+5",
    "5,00",
    "1,000",
    "12 .34",
    "12.",
    ".5",
    "$",
    "NaN",
    "Infinity",
    "0x10",
    "١٢",
    "12.3.4",
  ])("refuses %j", (text) => {
    expect(parseGiftAmount(text)).toBeUndefined();
  });

  it("round-trips every whole-cent amount in range (fuzzed)", () => {
    fc.assert(
      fc.property(fc.integer({ min: GIFT_MIN_CENTS, max: GIFT_MAX_CENTS }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
        expect(parseGiftAmount(text)).toBe(cents);
      }),
    );
  });
});

describe("the gift form", () => {
  it("takes a preset, or the typed amount when there is one, with the wall choice", () => {
    expect(parseForm(giftSchema, form({ preset: "2500" }))).toMatchObject({
      ok: true,
      data: { amountCents: 2500, choice: { display: "username", displayName: "", emoji: "", message: "" } },
    });
    expect(
      parseForm(
        giftSchema,
        form({
          preset: "500",
          customAmount: "12.34",
          display: "anonymous",
          emoji: "🦇",
          message: " Onward! ",
        }),
      ),
    ).toMatchObject({
      ok: true,
      data: { amountCents: 1234, choice: { display: "anonymous", emoji: "🦇", message: "Onward!" } },
    });
  });

  it("refuses amounts out of range, badly written or missing, and a preset not offered", () => {
    const error = (values: Record<string, string>) => {
      const result = parseForm(giftSchema, form(values));
      return result.ok ? undefined : result.errors;
    };
    expect(error({ customAmount: "0.99" })).toEqual({ customAmount: "gifts.errors.amountRange" });
    expect(error({ customAmount: "1000.01" })).toEqual({ customAmount: "gifts.errors.amountRange" });
    expect(error({ customAmount: "1.00" })).toBeUndefined();
    expect(error({ customAmount: "1000" })).toBeUndefined();
    expect(error({ customAmount: "12,34" })).toEqual({ customAmount: "gifts.errors.amountFormat" });
    expect(error({})).toEqual({ customAmount: "gifts.errors.amountMissing" });
    expect(error({ preset: "1" })).toEqual({ preset: "gifts.errors.amountFormat" });
  });

  it("never throws: garbage gives catalogue keys, valid data stays within the bounds (fuzzed)", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc.constantFrom(
        "",
        " ",
        "\u0000",
        "\r\n",
        "12.34",
        "500",
        "name",
        "anonymous",
        "🦇",
        "x".repeat(10_000),
      ),
    );
    const fields = fc.record(
      { preset: text, customAmount: text, display: text, displayName: text, emoji: text, message: text },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fields, (values) => {
        const result = parseForm(giftSchema, form(values));
        if (result.ok) {
          expect(result.data.amountCents).toBeGreaterThanOrEqual(GIFT_MIN_CENTS);
          expect(result.data.amountCents).toBeLessThanOrEqual(GIFT_MAX_CENTS);
          expect([...result.data.choice.message].length).toBeLessThanOrEqual(140);
          expect([...result.data.choice.displayName].length).toBeLessThanOrEqual(40);
        } else {
          for (const key of Object.values(result.errors)) expect(MESSAGE_KEYS.has(key), key).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("lists the same wall labels as the database schema", () => {
    expect([...browserWallTiers].sort()).toEqual([...wallTiers].sort());
  });
});

describe("the wall's page links", () => {
  it("shows every page up to seven, else the ends and two around the current one", async () => {
    const { pageNumbers, parseWallQuery } = await import("./wall-page");
    expect(pageNumbers(1, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(1, 20)).toEqual([1, 2, 3, "gap", 20]);
    expect(pageNumbers(10, 20)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 20]);
    expect(pageNumbers(20, 20)).toEqual([1, "gap", 18, 19, 20]);
    expect(parseWallQuery(new URLSearchParams("page=1000&tier=gift"))).toEqual({ page: 1, tier: "gift" });
    expect(parseWallQuery(new URLSearchParams("page=02&tier=x"))).toEqual({ page: 1 });
  });
});
