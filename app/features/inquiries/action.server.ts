import { data, redirect } from "react-router";
import type { RequestContext } from "~/lib/context";
import { echoedValue, type FieldErrors, parseForm, readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { INQUIRY_LIMITS, inquirySchema } from "./schema";
import { sendInquiry } from "./send.server";

/** What the form shows after a refusal: messages beside the fields or above the form, and the text as sent. */
export type InquiryFailure = {
  errors?: FieldErrors;
  /** A catalogue key for the red box above the form. */
  formError?: "inquiry.throttled" | "inquiry.sendFailed";
  retryAfterMinutes?: number;
  values: { name: string; email: string; message: string };
};

/** Where the page says "sent" (a redirect after the POST, so a reload sends nothing again). */
export const sentLocation = (productId: number) => `/shop/product/${productId}/inquire?sent=1`;

/**
 * The inquiry form's action (ADR 26): 400 with field messages, 429 when a limit is reached, 503 when the
 * mail server refused; every refusal gives the text back. Sent: a redirect to the confirmation.
 */
export async function answerInquiry(
  request: Request,
  product: { id: number; name: string },
  context: Pick<RequestContext, "requestId" | "ip" | "afterResponse">,
) {
  const form = await readForm(request);
  // Capped echoes (ADR 15), longer than any valid value so a near miss comes back whole.
  const values = {
    name: echoedValue(form, "name", INQUIRY_LIMITS.name * 2),
    email: echoedValue(form, "email", INQUIRY_LIMITS.email * 2),
    message: echoedValue(form, "message", INQUIRY_LIMITS.messageMax * 2),
  };
  const parsed = parseForm(inquirySchema, form);
  if (!parsed.ok) return data<InquiryFailure>({ errors: parsed.errors, values }, { status: 400 });
  const outcome = await sendInquiry(parsed.data, product, getPreferences(request).language, context);
  if (outcome.ok) return redirect(sentLocation(product.id));
  if ("throttled" in outcome) {
    const seconds = outcome.throttled.retryAfterSeconds;
    return data<InquiryFailure>(
      { formError: "inquiry.throttled", retryAfterMinutes: Math.max(1, Math.ceil(seconds / 60)), values },
      { status: 429, headers: { "Retry-After": String(seconds) } },
    );
  }
  return data<InquiryFailure>({ formError: "inquiry.sendFailed", values }, { status: 503 });
}
