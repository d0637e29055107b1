import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import { ItemName } from "./item-name";
import { PartlyRefunded, RefundTierChange } from "./refund-note";

export type PurchaseView = {
  id: number;
  status: "pending" | "paid" | "failed" | "refunded" | "disputed";
  description: string;
  kind: string;
  coins: number;
  tierKey: string | null;
  amountCents: number;
  refundedCents: number;
  /** The tier a refund of it moved (ADR 57). */
  refundTierChange?: { from: string; to: string } | null;
  currency: string;
  createdAt: string;
};

/** The account's payments, newest first, with each one's state. */
export function PurchaseHistory({ purchases }: { purchases: PurchaseView[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (purchases.length === 0)
    return (
      <p>
        {t("payments.history.empty")}{" "}
        <Link to="/coins" className="text-primary underline underline-offset-2">
          {t("payments.history.buyCoins")}
        </Link>
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="purchase-history">
        <caption className="sr-only">{t("payments.history.title")}</caption>
        <thead className="text-muted">
          <tr>
            <th scope="col" className="py-2 pr-3 font-normal">
              {t("payments.history.date")}
            </th>
            <th scope="col" className="py-2 pr-3 font-normal">
              {t("payments.history.item")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-normal">
              {t("payments.history.amount")}
            </th>
            <th scope="col" className="py-2 font-normal">
              {t("payments.history.status")}
            </th>
          </tr>
        </thead>
        <tbody>
          {purchases.map((purchase) => (
            <tr key={purchase.id} className="border-t border-line">
              <td className="py-2 pr-3 whitespace-nowrap">{format.date(purchase.createdAt)}</td>
              <td className="py-2 pr-3">
                <ItemName item={purchase} />
              </td>
              <td className="py-2 pr-3 text-right whitespace-nowrap">
                {format.money(purchase.amountCents, purchase.currency)}
              </td>
              <td className="py-2">
                {t(`payments.status.${purchase.status}`)}
                <PartlyRefunded
                  refundedCents={purchase.refundedCents}
                  totalCents={purchase.amountCents}
                  currency={purchase.currency}
                />
                <RefundTierChange change={purchase.refundTierChange} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
