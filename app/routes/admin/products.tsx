import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { Price } from "~/features/shop/product-card";
import { listProductsForAdmin } from "~/features/shop/product-editing.server";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/products";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 120);
  return { products: await listProductsForAdmin(), deleted };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The shop's products, each with its category, price and the units left to sell. */
export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <DocumentTitle name={t("admin.products.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.products.title")}</h1>
        <Link to="/admin/products/new" className={buttonClass("primary")}>
          {t("admin.products.new")}
        </Link>
      </div>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.products.deleted", { name: loaderData.deleted })}</FormNotice>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full text-left">
          <thead>
            <tr className="border-b border-line text-sm text-muted">
              <th scope="col" className="py-2 pr-3">
                {t("admin.products.name")}
              </th>
              <th scope="col" className="hidden py-2 pr-3 sm:table-cell">
                {t("admin.products.category")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("admin.products.price")}
              </th>
              <th scope="col" className="py-2 text-right">
                {t("admin.products.stock")}
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.products.map((product) => (
              <tr key={product.id} className="border-b border-line" data-testid="admin-product">
                <td className="py-2 pr-3">
                  <Link to={`/admin/products/${product.id}`} className="underline">
                    {product.name}
                  </Link>
                </td>
                <td className="hidden py-2 pr-3 sm:table-cell">{t(`shop.filters.${product.category}`)}</td>
                <td className="py-2 pr-3 text-right">
                  <Price cents={product.priceCents} currency={product.currency} />
                </td>
                <td className="py-2 text-right">{format.number(product.stock)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
