import { z } from "zod";
import { wholeNumber } from "~/lib/forms";

/** POST /coins: the pack to buy, by key. The price is read from the database, never from the form. */
export const buyCoinsSchema = z.object({
  packKey: z.string().regex(/^[a-z0-9-]{1,40}$/),
});

/** POST /pay/test/:session: the payer's answer on the test provider's page. */
export const testAnswerSchema = z.object({
  decision: z.enum(["approve", "decline"]),
});

/** `?payment=<id>` on the page a payer returns to. */
export const paymentIdSchema = wholeNumber(1, 2_147_483_647);

/** `?chapter=<number>` on /coins and the buy form's `chapter`: the chapter a purchase started from. */
export const fromChapterSchema = wholeNumber(1, 999_999);
