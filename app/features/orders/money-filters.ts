import { z } from "zod";
import { orderStatuses, paymentKinds, paymentStatuses } from "#db/schema";
import { wholeNumber } from "~/lib/forms";

export { orderStatuses, paymentKinds, paymentStatuses };

/** A list's search and page: anything out of range is ignored, never an error. */
const common = {
  q: z.string().trim().max(254).optional().catch(undefined),
  before: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
};

/** The orders list's filters, from the query string. */
export const orderFilterSchema = z.object({
  status: z.enum(orderStatuses).optional().catch(undefined),
  ...common,
});

/** The payments list's filters, from the query string. */
export const paymentFilterSchema = z.object({
  kind: z.enum(paymentKinds).optional().catch(undefined),
  status: z.enum(paymentStatuses).optional().catch(undefined),
  ...common,
});
