import "~/i18n/full-catalogue";
import { data } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { countryName } from "~/features/order-fulfilment/address";
import { orderNumber } from "~/features/order-fulfilment/number";
import { OrderLines } from "~/features/orders/order-lines";
import { getOwnOrder } from "~/features/orders/queries.server";
import { ShippingAddress } from "~/features/orders/shipping-address";
import { PartlyRefunded, RefundTierChange } from "~/features/payments/refund-note";
import { useRecheckWhilePending } from "~/features/payments/use-recheck-while-pending";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { getPreferences } from "~/lib/preferences.server";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/order";

/** One of the reader's orders (another reader's, or none, is a 404); the provider returns the payer here. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  const order = id === undefined ? undefined : await getOwnOrder(user.id, id);
  if (!order) throw data(null, { status: 404 });
  return {
    order: {
      ...order,
      number: orderNumber(order.id),
      country: countryName(order.shipCountry, getPreferences(request).language),
      createdAt: order.createdAt.toISOString(),
      reservedUntil: order.reservedUntil.toISOString(),
      shippedAt: order.shippedAt?.toISOString() ?? null,
    },
    cancelled: new URL(request.url).searchParams.has("cancelled"),
    // Thanks only on the return from paying (checkout.server.ts orderReturnPath), for an order still paid
    // in full: a later visit, or one after a refund, shows the order as it stands.
    thanks:
      new URL(request.url).searchParams.has("returned") &&
      order.status === "paid" &&
      order.refundedCents === 0,
  };
}

export default function Order({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { order, cancelled, thanks } = loaderData;
  const hasDays = order.lines.some((line) => line.membershipDays > 0);
  const pending = order.status === "pending";
  useRecheckWhilePending(pending && !cancelled);
  return (
    <Page title={t("orders.orderTitle", { number: order.number })} width="max-w-2xl">
      <div className="flex flex-col gap-6">
        <p className="text-center text-lg" role="status" data-testid="order-status">
          {t(`orders.statuses.${order.status}`)}
          {" · "}
          <span className="text-muted">{format.date(order.createdAt)}</span>
          <PartlyRefunded
            refundedCents={order.refundedCents}
            totalCents={order.totalCents}
            currency={order.currency}
          />
          <RefundTierChange change={order.refundTierChange} />
        </p>
        {pending && cancelled ? <FormAlert>{t("orders.cancelledAtProvider")}</FormAlert> : null}
        {pending && !cancelled ? (
          <FormNotice>
            {t("orders.waiting", { time: format.date(order.reservedUntil, { timeStyle: "short" }) })}
          </FormNotice>
        ) : null}
        {thanks ? <FormNotice>{t("orders.thanks")}</FormNotice> : null}
        {order.shippedAt ? (
          <p className="text-center" data-testid="order-shipped">
            {t("orders.shippedWith", {
              date: format.date(order.shippedAt),
              carrier: order.carrier,
              tracking: order.trackingNumber,
            })}
          </p>
        ) : null}
        <Panel id="order-lines" title={t("orders.lines")}>
          <OrderLines
            lines={order.lines}
            totalCents={order.totalCents}
            refundedCents={order.refundedCents}
            currency={order.currency}
            caption={t("orders.lines")}
          />
          {hasDays ? <p className="mt-3 text-sm text-muted">{t("orders.membershipDaysRule")}</p> : null}
        </Panel>
        <ShippingAddress order={order} />
        {order.dedication ? (
          <section aria-labelledby="order-dedication">
            <h2 id="order-dedication" className="font-display text-lg text-primary">
              {t("orders.dedication")}
            </h2>
            <p className="whitespace-pre-line">{order.dedication}</p>
          </section>
        ) : null}
        <p className="text-center">
          <Link to="/account#orders" className="text-primary underline underline-offset-2">
            {t("orders.allOrders")}
          </Link>
        </p>
      </div>
    </Page>
  );
}
