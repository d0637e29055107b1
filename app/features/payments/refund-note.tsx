import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";

/**
 * What was refunded of a payment or order that is not refunded in full ("$45.00 of $90.00 refunded"), under
 * its status; nothing when nothing was, or all was (its status then says "Refunded").
 */
export function PartlyRefunded({
  refundedCents,
  totalCents,
  currency,
}: {
  refundedCents: number;
  totalCents: number;
  currency: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (refundedCents <= 0 || refundedCents >= totalCents) return null;
  return (
    <span className="block text-xs text-muted" data-testid="partly-refunded">
      {t("payments.refundedPart", {
        refunded: format.money(refundedCents, currency),
        total: format.money(totalCents, currency),
      })}
    </span>
  );
}

/** Why the reader's tier moved with a refund (ADR 57), from the tiers kept on the payment. */
export function RefundTierChange({ change }: { change: { from: string; to: string } | null | undefined }) {
  const { t } = useTranslation();
  if (!change) return null;
  return (
    <span className="block text-xs text-muted" data-testid="refund-tier-change">
      {t("payments.refundTierChange", { from: t(`tiers.${change.from}`), to: t(`tiers.${change.to}`) })}
    </span>
  );
}
