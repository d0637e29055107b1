import { useTranslation } from "~/i18n/react";
import { HistoryTable } from "~/ui/history-table";
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
    <HistoryTable
      caption={t("payments.history.title")}
      testId={"purchase-history"}
      columns={[
        { label: t("payments.history.date") },
        { label: t("payments.history.item") },
        { label: t("payments.history.amount"), numeric: true },
        { label: t("payments.history.status") },
      ]}
    >
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
    </HistoryTable>
  );
}
