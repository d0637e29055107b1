import { useTranslation } from "~/i18n/react";
import { FormAlert, FormNotice } from "~/ui/form";

/** Where a coin payment the reader returned from stands (on /coins, and on the chapter it started from). */
export function PaymentResult({
  payment,
  cancelled,
}: {
  payment: { status: string; coins: number } | undefined;
  cancelled: boolean;
}) {
  const { t } = useTranslation();
  if (!payment) return null;
  if (payment.status === "paid")
    return <FormNotice>{t("coins.result.paid", { count: payment.coins })}</FormNotice>;
  if (payment.status === "failed") return <FormAlert>{t("coins.result.declined")}</FormAlert>;
  if (payment.status === "pending")
    return <FormNotice>{t(cancelled ? "coins.result.cancelled" : "coins.result.pending")}</FormNotice>;
  return <FormNotice>{t("coins.result.reversed")}</FormNotice>;
}
