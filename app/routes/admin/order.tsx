import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { FormResult } from "~/features/admin/confirmed-form";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import { countryName } from "~/features/order-fulfilment/address";
import { orderNumber } from "~/features/order-fulfilment/number";
import { getOrderForAdmin } from "~/features/orders/money.server";
import { moneyAction } from "~/features/orders/money-action.server";
import { RefundForm, ShipForm } from "~/features/orders/money-forms";
import { OrderLines } from "~/features/orders/order-lines";
import { ShippingAddress } from "~/features/orders/shipping-address";
import { PaymentSummary } from "~/features/payments/payment-summary";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/order";

async function orderOf(params: { id?: string }) {
  const order = await getOrderForAdmin(rowIdParam(params.id) ?? 0);
  if (!order?.payment) throw data(null, { status: 404 });
  return { ...order, payment: order.payment };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const order = await orderOf(params);
  const done = new URL(request.url).searchParams.get("done");
  return {
    order: {
      ...order,
      number: orderNumber(order.id),
      country: countryName(order.shipCountry, getPreferences(request).language),
    },
    done: done === "ship" || done === "refund" ? done : undefined,
  };
}

/** Ship the order, or refund its payment (ADR 43): confirmed, audited. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const order = await orderOf(params);
  return moneyAction(
    request,
    author,
    context,
    { orderId: order.id, paymentId: order.payment.id },
    `/admin/orders/${order.id}`,
  );
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { order, done } = loaderData;
  const result = actionData as FormResult | undefined;
  return (
    <>
      <DocumentTitle name={t("orders.orderTitle", { number: order.number })} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">
          {t("orders.orderTitle", { number: order.number })}
        </h1>
        <Link to="/admin/orders" className="underline">
          {t("admin.orders.back")}
        </Link>
      </div>
      {result?.errors?.form ? <FormAlert>{t(result.errors.form)}</FormAlert> : null}
      {done && !result ? <FormNotice>{t(`admin.money.done.${done}`)}</FormNotice> : null}
      <p data-testid="admin-order-status">
        {t(`orders.statuses.${order.status}`)} ·{" "}
        {format.date(order.createdAt, { dateStyle: "medium", timeStyle: "short" })}
      </p>
      <Panel id="order-payment" title={t("admin.money.payment")}>
        <PaymentSummary payment={order.payment} />
      </Panel>
      <Panel id="order-lines" title={t("orders.lines")}>
        <OrderLines
          lines={order.lines}
          totalCents={order.totalCents}
          currency={order.currency}
          caption={t("orders.lines")}
        />
        {order.dedication ? (
          <p className="mt-3">
            {t("orders.dedication")}: “{order.dedication}”
          </p>
        ) : null}
      </Panel>
      <ShippingAddress order={order} />
      <Panel id="order-shipping" title={t("admin.money.shipping")}>
        {order.shippedAt ? (
          <p data-testid="admin-order-shipped">
            {t("orders.shippedWith", {
              date: format.date(order.shippedAt, { dateStyle: "medium" }),
              carrier: order.carrier,
              tracking: order.trackingNumber,
            })}
          </p>
        ) : order.status === "paid" ? (
          <ShipForm result={result} />
        ) : (
          <p className="text-muted">{t("admin.money.notShippable")}</p>
        )}
      </Panel>
      <Panel id="order-refund" title={t("admin.money.refundTitle")}>
        {order.payment.refundable > 0 ? (
          <RefundForm left={order.payment.refundable} currency={order.currency} result={result} />
        ) : (
          <p className="text-muted">{t("admin.money.notRefundable")}</p>
        )}
      </Panel>
    </>
  );
}
