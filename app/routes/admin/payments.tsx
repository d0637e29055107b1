import "~/i18n/full-catalogue";
import { FilterForm, FilterSelect, FilterText, nextPagePath } from "~/features/admin/filters";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listPaymentsForAdmin } from "~/features/orders/money.server";
import { paymentFilterSchema, paymentKinds, paymentStatuses } from "~/features/orders/money-filters";
import { ItemName } from "~/features/payments/item-name";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/payments";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const filter = paymentFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return { ...(await listPaymentsForAdmin({ ...filter, q: filter.q || undefined })), filter };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** Every payment (coin packs, orders, support, gifts), newest first, each with its refund (ADR 43). */
export default function AdminPayments({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { payments, next, filter } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.payments.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.payments.title")}</h1>
        <a href="/admin/export/payments.csv" className="underline" download>
          {t("admin.payments.csv")}
        </a>
      </div>
      <FilterForm submit={t("admin.orders.filter")}>
        <FilterSelect
          label={t("admin.payments.kind")}
          name="kind"
          value={filter.kind}
          any={t("admin.payments.anyKind")}
          options={paymentKinds.map((kind) => ({ value: kind, label: t(`admin.money.kinds.${kind}`) }))}
        />
        <FilterSelect
          label={t("orders.status")}
          name="status"
          value={filter.status}
          any={t("admin.orders.anyStatus")}
          options={paymentStatuses.map((status) => ({
            value: status,
            label: t(`admin.money.paymentStatuses.${status}`),
          }))}
        />
        <FilterText label={t("admin.payments.query")} name="q" value={filter.q} maxLength={254} />
      </FilterForm>
      {payments.length ? (
        <ul className="flex flex-col divide-y divide-line" data-testid="admin-payments">
          {payments.map((payment) => (
            <li
              key={payment.id}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
            >
              <Link to={`/admin/payments/${payment.id}`} className="underline">
                {t("admin.money.paymentNumber", { id: payment.id })} · <ItemName item={payment} />
              </Link>
              <span className="min-w-0 break-all text-sm text-muted">
                {payment.buyer ?? t("admin.money.deletedAccount")} ·{" "}
                {format.money(payment.amountCents, payment.currency)} ·{" "}
                {t(`admin.money.paymentStatuses.${payment.status}`)}
                {payment.refundedCents > 0
                  ? ` · ${t("admin.payments.refunded", { amount: format.money(payment.refundedCents, payment.currency) })}`
                  : ""}{" "}
                · {format.date(payment.createdAt, { dateStyle: "medium" })}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted">{t("admin.payments.none")}</p>
      )}
      {next ? (
        <Link
          to={nextPagePath("/admin/payments", filter, next)}
          className={buttonClass("outline", "self-start")}
        >
          {t("admin.orders.more")}
        </Link>
      ) : null}
    </>
  );
}
