import { ItemName } from "~/features/payments/item-name";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";

export type PaymentSummaryView = {
  id: number;
  kind: string;
  status: string;
  provider: string;
  description: string;
  coins: number;
  tierKey: string | null;
  amountCents: number;
  refundedCents: number;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  buyerId: number | null;
  buyer: string | null;
  email: string | null;
};

/** A payment as the author reads it: what, who, how much, what was refunded. */
export function PaymentSummary({ payment }: { payment: PaymentSummaryView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const money = (cents: number) => format.money(cents, payment.currency);
  const date = (iso: string) => format.date(iso, { dateStyle: "medium", timeStyle: "short" });
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]" data-testid="payment-summary">
      <dt className="text-muted">{t("admin.money.payment")}</dt>
      <dd>
        <Link to={`/admin/payments/${payment.id}`} className="underline">
          {t("admin.money.paymentNumber", { id: payment.id })}
        </Link>{" "}
        · <ItemName item={payment} /> · {t(`admin.money.kinds.${payment.kind}`)} · {payment.provider}
      </dd>
      <dt className="text-muted">{t("admin.money.buyer")}</dt>
      <dd className="break-all">
        {payment.buyerId ? (
          <Link to={`/admin/readers/${payment.buyerId}`} className="underline">
            {payment.buyer}
          </Link>
        ) : (
          t("admin.money.deletedAccount")
        )}
        {payment.email ? ` · ${payment.email}` : ""}
      </dd>
      <dt className="text-muted">{t("admin.money.amountPaid")}</dt>
      <dd>
        {money(payment.amountCents)} · {t(`admin.money.paymentStatuses.${payment.status}`)}
        {payment.paidAt ? ` · ${date(payment.paidAt)}` : ` · ${date(payment.createdAt)}`}
      </dd>
      <dt className="text-muted">{t("admin.money.refunded")}</dt>
      <dd data-testid="payment-refunded">{money(payment.refundedCents)}</dd>
    </dl>
  );
}
