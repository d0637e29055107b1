import { z } from "zod";
import { requiredText } from "~/lib/form-fields";

/** Limits of the shipping and refund forms (ADR 43). */
export const MONEY_FORM_LIMITS = { carrier: 60, tracking: 60, note: 300, amount: 12 } as const;

/** Every money action is confirmed by ticking a box. */
const confirm = z.literal("on", { error: "admin.money.errors.confirm" });

/** A tracking number as carriers print them: letters, digits, spaces and hyphens. */
const tracking = requiredText(MONEY_FORM_LIMITS.tracking, "admin.money.errors.tracking").regex(
  /^[A-Za-z0-9][A-Za-z0-9 -]*$/,
  { error: "admin.money.errors.tracking" },
);

/**
 * An amount typed in the payment's currency ("12", "12.5", "12.50"), as cents; empty means all that is
 * left to refund.
 */
const refundAmount = z
  .string({ error: "admin.money.errors.amount" })
  .trim()
  .max(MONEY_FORM_LIMITS.amount, { error: "admin.money.errors.amount" })
  .transform((value, context) => {
    if (value === "") return "rest" as const;
    const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(value);
    const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")) : 0;
    if (cents < 1) {
      context.addIssue({ code: "custom", message: "admin.money.errors.amount" });
      return z.NEVER;
    }
    return cents;
  });

/** The author's reason, kept in the audit log. */
const note = requiredText(MONEY_FORM_LIMITS.note, "admin.money.errors.note").pipe(
  z.string().min(3, { error: "admin.money.errors.note" }),
);

/** The order page's and the payment page's forms, told apart by `intent`. */
export const moneyActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("ship"),
    carrier: requiredText(MONEY_FORM_LIMITS.carrier, "admin.money.errors.carrier"),
    trackingNumber: tracking,
    confirm,
  }),
  z.object({
    intent: z.literal("refund"),
    amount: refundAmount,
    note,
    confirm,
  }),
]);

/** The cancel form of a subscription's row ("cancel-<id>" names the subscription), with a reason, confirmed. */
export const cancelSubscriptionSchema = z
  .object({
    intent: z.string().regex(/^cancel-\d{1,10}$/, { error: "admin.money.errors.status" }),
    note,
    confirm,
  })
  .transform(({ intent, ...rest }) => ({ ...rest, subscription: Number(intent.slice("cancel-".length)) }));
