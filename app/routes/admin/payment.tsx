import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { FormResult } from "~/features/admin/confirmed-form";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import { orderNumber } from "~/features/order-fulfilment/number";
import { getPaymentForAdmin } from "~/features/orders/money.server";
import { moneyAction } from "~/features/orders/money-action.server";
import { RefundForm } from "~/features/orders/money-forms";
import { PaymentSummary } from "~/features/payments/payment-summary";
import { useTranslation } from "~/i18n/react";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/payment";

async function paymentOf(params: { id?: string }) {
  const payment = await getPaymentForAdmin(rowIdParam(params.id) ?? 0);
  if (!payment) throw data(null, { status: 404 });
  return payment;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const payment = await paymentOf(params);
  const done = new URL(request.url).searchParams.get("done") === "refund" ? ("refund" as const) : undefined;
  return { payment, done };
}

/** Refund the payment, in part or in full, through its provider (ADR 43): confirmed, audited. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const payment = await paymentOf(params);
  return moneyAction(request, author, context, { paymentId: payment.id }, `/admin/payments/${payment.id}`);
}

export default function AdminPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { payment, done } = loaderData;
  const result = actionData as FormResult | undefined;
  const title = t("admin.money.paymentNumber", { id: payment.id });
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        <Link to="/admin/payments" className="underline">
          {t("admin.payments.back")}
        </Link>
      </div>
      {result?.errors?.form ? <FormAlert>{t(result.errors.form)}</FormAlert> : null}
      {done && !result ? <FormNotice>{t("admin.money.done.refund")}</FormNotice> : null}
      <Panel id="payment" title={t("admin.money.payment")}>
        <PaymentSummary payment={payment} />
        {payment.orderId ? (
          <p className="mt-3">
            <Link to={`/admin/orders/${payment.orderId}`} className="underline">
              {t("orders.orderTitle", { number: orderNumber(payment.orderId) })}
            </Link>
          </p>
        ) : null}
      </Panel>
      <Panel id="payment-refund" title={t("admin.money.refundTitle")}>
        {payment.refundable > 0 ? (
          <RefundForm left={payment.refundable} currency={payment.currency} result={result} />
        ) : (
          <p className="text-muted">{t("admin.money.notRefundable")}</p>
        )}
      </Panel>
    </>
  );
}
