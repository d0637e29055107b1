import { useTranslation } from "~/i18n/react";

export type PaymentItem = { kind: string; coins: number; tierKey: string | null; description: string };

/** What a payment bought, in the reader's language (the stored description is the provider's line item). */
export function ItemName({ item }: { item: PaymentItem }) {
  const { t } = useTranslation();
  if (item.kind === "coins") return <>{t("coins.packName", { count: item.coins })}</>;
  if (item.kind === "subscription" && item.tierKey)
    return <>{t("payments.subscriptionItem", { tier: t(`tiers.${item.tierKey}`) })}</>;
  if (item.kind === "gift") return <>{t("payments.giftItem")}</>;
  // An order's payment is described "Order #000042" (features/orders/place.server.ts): its number, translated.
  if (item.kind === "product" && item.description.startsWith("Order "))
    return <>{t("orders.paymentItem", { number: item.description.slice("Order ".length) })}</>;
  return <>{item.description}</>;
}
