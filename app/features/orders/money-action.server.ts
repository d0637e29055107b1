import { data, redirect } from "react-router";
import type { SessionUser } from "~/features/auth/session.server";
import type { RequestMeta } from "~/lib/context";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { markShipped, refundPayment } from "./money.server";
import { MONEY_FORM_LIMITS, moneyActionSchema } from "./order-forms";

export type MoneyActionResult = {
  intent?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

/** Why a money action changed nothing, as the field beside which it is said. */
const refusals = {
  status: { form: "admin.money.errors.status" },
  tooMuch: { amount: "admin.money.errors.tooMuch" },
  otherProvider: { form: "admin.money.errors.otherProvider" },
  unavailable: { form: "admin.money.errors.unavailable" },
} as const;

/**
 * The order page's and the payment page's forms (ADR 43): ship an order, refund a payment. Each is
 * confirmed, audited, and answers a redirect to `back` with `?done=` or the form again with why.
 */
export async function moneyAction(
  request: Request,
  author: SessionUser,
  meta: RequestMeta,
  subject: { orderId?: number; paymentId: number },
  back: string,
) {
  const form = await readForm(request);
  const intent = echoedValue(form, "intent", 20);
  const values = {
    carrier: echoedValue(form, "carrier", MONEY_FORM_LIMITS.carrier),
    trackingNumber: echoedValue(form, "trackingNumber", MONEY_FORM_LIMITS.tracking),
    amount: echoedValue(form, "amount", MONEY_FORM_LIMITS.amount),
    note: echoedValue(form, "note", MONEY_FORM_LIMITS.note),
  };
  const parsed = parseForm(moneyActionSchema, form);
  if (!parsed.ok) return data<MoneyActionResult>({ intent, errors: parsed.errors, values }, 400);
  const input = parsed.data;
  if (input.intent === "ship" && subject.orderId === undefined) throw data(null, { status: 404 });
  const actor = { via: "admin", userId: author.id } as const;
  const outcome =
    input.intent === "ship"
      ? await markShipped(
          subject.orderId ?? 0,
          { carrier: input.carrier, trackingNumber: input.trackingNumber },
          actor,
        )
      : await refundPayment(subject.paymentId, input.amount, input.note, actor, meta);
  if (outcome.ok) return redirect(`${back}?done=${input.intent}`);
  if (outcome.reason === "notFound") throw data(null, { status: 404 });
  const status = outcome.reason === "unavailable" ? 503 : 409;
  return data<MoneyActionResult>({ intent, errors: refusals[outcome.reason], values }, status);
}
