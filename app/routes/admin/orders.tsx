import "~/i18n/full-catalogue";
import { FilterForm, FilterSelect, FilterText, nextPagePath } from "~/features/admin/filters";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listOrdersForAdmin } from "~/features/orders/money.server";
import { orderFilterSchema, orderStatuses } from "~/features/orders/money-filters";
import { OrderList } from "~/features/orders/order-list";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import type { Route } from "./+types/orders";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const filter = orderFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return { ...(await listOrdersForAdmin({ ...filter, q: filter.q || undefined })), filter };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The shop's orders, newest first, by status and by number or buyer; CSV for the accounts (ADR 43). */
export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { orders, next, filter } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.orders.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.orders.title")}</h1>
        <a href="/admin/export/orders.csv" className="underline" download>
          {t("admin.orders.csv")}
        </a>
      </div>
      <FilterForm submit={t("admin.orders.filter")}>
        <FilterSelect
          label={t("orders.status")}
          name="status"
          value={filter.status}
          any={t("admin.orders.anyStatus")}
          options={orderStatuses.map((status) => ({ value: status, label: t(`orders.statuses.${status}`) }))}
        />
        <FilterText label={t("admin.orders.query")} name="q" value={filter.q} maxLength={254} />
      </FilterForm>
      <OrderList orders={orders} admin empty={t("admin.orders.none")} />
      {next ? (
        <Link
          to={nextPagePath("/admin/orders", filter, next)}
          className={buttonClass("outline", "self-start")}
        >
          {t("admin.orders.more")}
        </Link>
      ) : null}
    </>
  );
}
