import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";

export type OrderLineView = {
  name: string;
  variantLabel: string | null;
  unitPriceCents: number;
  quantity: number;
};

/** Lines with quantity and amount, and the total: the checkout's server-priced cart and a placed order. */
export function OrderLines({
  lines,
  totalCents,
  refundedCents = 0,
  currency,
  caption,
}: {
  lines: OrderLineView[];
  totalCents: number;
  /** A placed order's refunds so far: shown under the total, with what stays paid. */
  refundedCents?: number;
  currency: string;
  caption: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <table className="w-full text-left" data-testid="order-lines">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-sm text-muted">
        <tr>
          <th scope="col" className="py-2 pr-3 font-normal">
            {t("orders.item")}
          </th>
          <th scope="col" className="py-2 pr-3 text-right font-normal">
            {t("orders.quantity")}
          </th>
          <th scope="col" className="py-2 text-right font-normal">
            {t("orders.amount")}
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={`${line.name}:${line.variantLabel}`} className="border-t border-line align-top">
            <td className="py-2 pr-3">
              {line.name}
              {line.variantLabel ? (
                <span className="block text-sm text-muted">
                  {t("orders.variant", { piece: line.variantLabel })}
                </span>
              ) : null}
              <span className="block text-sm text-muted">
                {t("orders.each", { price: format.money(line.unitPriceCents, currency) })}
              </span>
            </td>
            <td className="py-2 pr-3 text-right">{format.number(line.quantity)}</td>
            <td className="py-2 text-right whitespace-nowrap">
              {format.money(line.unitPriceCents * line.quantity, currency)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="border-t-2 border-line">
          <th scope="row" colSpan={2} className="py-2 pr-3 text-right font-display">
            {t("orders.total")}
          </th>
          <td className="py-2 text-right font-display text-xl text-primary" data-testid="order-total">
            {format.money(totalCents, currency)}
          </td>
        </tr>
        {refundedCents > 0 ? (
          <>
            <tr>
              <th scope="row" colSpan={2} className="py-1 pr-3 text-right font-normal">
                {t("orders.refundedRow")}
              </th>
              <td className="py-1 text-right whitespace-nowrap" data-testid="order-refunded">
                {format.money(-refundedCents, currency)}
              </td>
            </tr>
            <tr>
              <th scope="row" colSpan={2} className="py-1 pr-3 text-right font-normal">
                {t("orders.keptRow")}
              </th>
              <td className="py-1 text-right whitespace-nowrap" data-testid="order-kept">
                {format.money(totalCents - refundedCents, currency)}
              </td>
            </tr>
          </>
        ) : null}
      </tfoot>
    </table>
  );
}
