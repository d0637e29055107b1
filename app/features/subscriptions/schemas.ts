import { z } from "zod";
import { tierKeys } from "#db/schema";

/**
 * POST /account/subscription: join (again) from the account, change tier, cancel (with its confirmation) or keep a cancelled one. Strict:
 * an unknown field, a long value or a tier that is not one of the three is a 400.
 */
export const subscriptionActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("change"), tierKey: z.enum(tierKeys) }).strict(),
  z.object({ intent: z.literal("join"), tierKey: z.enum(tierKeys) }).strict(),
  z.object({ intent: z.literal("cancel"), confirm: z.literal("yes") }).strict(),
  z.object({ intent: z.literal("resume") }).strict(),
]);

export type SubscriptionAction = z.infer<typeof subscriptionActionSchema>;

/** POST /pay/test/subscription/:id: what the test provider's billing engine does now. */
export const testBillingSchema = z.object({ action: z.enum(["renew", "fail", "cancel"]) }).strict();

/** A provider subscription id in a URL: anything else never reaches a query. */
export const providerSubscriptionIdSchema = z.string().regex(/^[\w-]{1,100}$/);

/** A request's form fields, or undefined for a body that is not a form or is out of bounds. */
export async function readFormFields(request: Request): Promise<Record<string, string> | undefined> {
  try {
    return formFields(await request.formData());
  } catch {
    return undefined;
  }
}

/** Form fields with a bounded size: more than a few fields or a long value is refused before parsing. */
export function formFields(form: FormData): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of form.entries()) {
    if (++count > 5 || typeof value !== "string" || value.length > 100 || key.length > 40) return undefined;
    fields[key] = value;
  }
  return fields;
}
