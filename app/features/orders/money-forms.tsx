import { ConfirmedForm, type FormResult } from "~/features/admin/confirmed-form";
import { useTranslation } from "~/i18n/react";
import { Field } from "~/ui/form";
import { useFormat } from "~/ui/use-format";
import { MONEY_FORM_LIMITS } from "./order-forms";

/** Marks a paid order shipped: the carrier and its tracking number (the buyer is e-mailed both). */
export function ShipForm({ result }: { result?: FormResult }) {
  const { t } = useTranslation();
  const mine = result?.intent === "ship" ? result : undefined;
  return (
    <ConfirmedForm
      intent="ship"
      submit={t("admin.money.ship")}
      confirmLabel={t("admin.money.confirmShip")}
      result={result}
    >
      <Field
        name="carrier"
        label={t("admin.money.carrier")}
        maxLength={MONEY_FORM_LIMITS.carrier}
        defaultValue={mine?.values?.carrier}
        error={mine?.errors?.carrier}
        required
      />
      <Field
        name="trackingNumber"
        label={t("admin.money.tracking")}
        maxLength={MONEY_FORM_LIMITS.tracking}
        defaultValue={mine?.values?.trackingNumber}
        error={mine?.errors?.trackingNumber}
        required
      />
    </ConfirmedForm>
  );
}

/** Refunds part or all of what is left of a payment, through its provider, with the author's reason. */
export function RefundForm({
  left,
  currency,
  result,
}: {
  left: number;
  currency: string;
  result?: FormResult;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const mine = result?.intent === "refund" ? result : undefined;
  return (
    <ConfirmedForm
      intent="refund"
      submit={t("admin.money.refund")}
      confirmLabel={t("admin.money.confirmRefund")}
      result={result}
      note={useReasonField()}
    >
      <Field
        name="amount"
        inputMode="decimal"
        label={t("admin.money.amount", { currency })}
        hint={t("admin.money.amountHint", { left: format.money(left, currency) })}
        maxLength={MONEY_FORM_LIMITS.amount}
        defaultValue={mine?.values?.amount}
        error={mine?.errors?.amount}
      />
    </ConfirmedForm>
  );
}

/** The reason a money action asks for (kept in the audit log), as ConfirmedForm's `note`. */
export function useReasonField() {
  const { t } = useTranslation();
  return { label: t("admin.money.note"), hint: t("admin.money.noteHint"), maxLength: MONEY_FORM_LIMITS.note };
}
