import type { OrderStatus } from "#db/schema";
import { orderNumber } from "~/features/order-fulfilment/number";
import { PartlyRefunded } from "~/features/payments/refund-note";
import { useTranslation } from "~/i18n/react";
import { HistoryTable } from "~/ui/history-table";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";

export type OrderSummaryView = {
  id: number;
  status: OrderStatus;
  totalCents: number;
  /** What was refunded of it so far (its payment's refunds). */
  refundedCents?: number;
  currency: string;
  createdAt: string;
  /** The buyer's username, shown in the admin's list (null: the account was deleted). */
  buyer?: string | null;
};

/**
 * Orders, newest first: number (a link to the order), date, total and status. The account's own list, and
 * the admin's (`admin`: links to the admin's order page, a buyer column, its own empty text).
 */
export function OrderList({
  orders,
  admin = false,
  empty,
}: {
  orders: OrderSummaryView[];
  admin?: boolean;
  empty?: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (orders.length === 0 && empty) return <p className="text-muted">{empty}</p>;
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
    <HistoryTable
      caption={t("orders.title")}
      testId={admin ? "admin-orders" : "order-list"}
      columns={[
        { label: t("orders.number") },
        { label: t("orders.date") },
        admin && { label: t("admin.money.buyer") },
        { label: t("orders.total"), numeric: true },
        { label: t("orders.status") },
      ]}
    >
      {orders.map((order) => (
        <tr key={order.id} className="border-t border-line">
          <td className="py-2 pr-3">
            <Link
              to={`${admin ? "/admin" : ""}/orders/${order.id}`}
              className="text-primary underline underline-offset-2"
            >
              {orderNumber(order.id)}
            </Link>
          </td>
          <td className="py-2 pr-3 whitespace-nowrap">{format.date(order.createdAt)}</td>
          {admin ? (
            <td className="py-2 pr-3 break-all">{order.buyer ?? t("admin.money.deletedAccount")}</td>
          ) : null}
          <td className="py-2 pr-3 text-right whitespace-nowrap">
            {format.money(order.totalCents, order.currency)}
          </td>
          <td className="py-2" data-testid="order-list-status">
            {t(`orders.statuses.${order.status}`)}
            <PartlyRefunded
              refundedCents={order.refundedCents ?? 0}
              totalCents={order.totalCents}
              currency={order.currency}
            />
          </td>
        </tr>
      ))}
    </HistoryTable>
  );
}
