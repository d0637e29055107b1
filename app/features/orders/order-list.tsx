import type { OrderStatus } from "#db/schema";
import { orderNumber } from "~/features/order-fulfilment/number";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";

export type OrderSummaryView = {
  id: number;
  status: OrderStatus;
  totalCents: number;
  currency: string;
  createdAt: string;
};

/** The account's orders, newest first: number (a link to the order), date, total and status. */
export function OrderList({ orders }: { orders: OrderSummaryView[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (orders.length === 0)
    return (
      <p>
        {t("orders.none")}{" "}
        <Link to="/shop" className="text-primary underline underline-offset-2">
          {t("orders.toShop")}
        </Link>
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="order-list">
        <caption className="sr-only">{t("orders.title")}</caption>
        <thead className="text-muted">
          <tr>
            <th scope="col" className="py-2 pr-3 font-normal">
              {t("orders.number")}
            </th>
            <th scope="col" className="py-2 pr-3 font-normal">
              {t("orders.date")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-normal">
              {t("orders.total")}
            </th>
            <th scope="col" className="py-2 font-normal">
              {t("orders.status")}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} className="border-t border-line">
              <td className="py-2 pr-3">
                <Link to={`/orders/${order.id}`} className="text-primary underline underline-offset-2">
                  {orderNumber(order.id)}
                </Link>
              </td>
              <td className="py-2 pr-3 whitespace-nowrap">{format.date(order.createdAt)}</td>
              <td className="py-2 pr-3 text-right whitespace-nowrap">
                {format.money(order.totalCents, order.currency)}
              </td>
              <td className="py-2">{t(`orders.statuses.${order.status}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
