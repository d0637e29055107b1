import { z } from "zod";
import { requireNameWhenShown, wallChoiceFields } from "./wall-choice";

/** A one-off gift's bounds, in cents (docs/product-rules.md "Fundraiser"); checkout enforces them again. */
export const GIFT_MIN_CENTS = 1_00;
export const GIFT_MAX_CENTS = 1_000_00;
export const GIFT_CURRENCY = "USD";
/** The preset buttons, in cents. */
export const giftPresets = ["500", "1000", "2500", "5000"] as const;

/**
 * A typed amount in dollars to cents, strictly: digits with at most two decimals and an optional leading
 * "$" ("12", "12.3", "12.34", "$5"). Anything else (signs, exponents, commas, spaces inside) is undefined.
 */
export function parseGiftAmount(text: string): number | undefined {
  const match = /^\$?(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const dollars = Number(match[1]);
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  return dollars * 100 + cents;
}

/**
 * POST /fundraiser, intent "gift": a preset (radio) or a typed amount (which wins when filled), and the wall
 * choice. Messages are catalogue keys.
 */
export const giftSchema = z
  .object({
    ...wallChoiceFields,
    preset: z.enum(giftPresets, { error: "gifts.errors.amountFormat" }).optional(),
    customAmount: z.string().max(100, { error: "gifts.errors.amountFormat" }).trim().default(""),
  })
  .superRefine(requireNameWhenShown)
  .transform((form, context) => {
    let amountCents: number | undefined;
    if (form.customAmount !== "") {
      amountCents = parseGiftAmount(form.customAmount);
      if (amountCents === undefined) {
        context.addIssue({ code: "custom", path: ["customAmount"], message: "gifts.errors.amountFormat" });
        return z.NEVER;
      }
    } else if (form.preset) amountCents = Number(form.preset);
    if (amountCents === undefined) {
      context.addIssue({ code: "custom", path: ["customAmount"], message: "gifts.errors.amountMissing" });
      return z.NEVER;
    }
    if (amountCents < GIFT_MIN_CENTS || amountCents > GIFT_MAX_CENTS) {
      context.addIssue({ code: "custom", path: ["customAmount"], message: "gifts.errors.amountRange" });
      return z.NEVER;
    }
    const { preset: _preset, customAmount: _custom, ...choice } = form;
    return { amountCents, choice };
  });
