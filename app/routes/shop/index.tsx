import "~/i18n/full-catalogue";
import { matchesFilter, productSummary, type ShopFilter, shopFilters } from "~/features/shop/catalog";
import { ProductCard } from "~/features/shop/product-card";
import { listProducts } from "~/features/shop/queries.server";
import { productNamesIn } from "~/features/shop/translated.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { shareablePage } from "~/lib/shareable";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/index";

function parseFilter(value: string | null): ShopFilter {
  return shopFilters.find((filter) => filter === value) ?? "all";
}

export const headers = shareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const filter = parseFilter(new URL(request.url).searchParams.get("category"));
  const now = new Date();
  const products = (await listProducts()).filter((product) => matchesFilter(product, filter, now));
  return {
    filter,
    // Names in the page's language where translated (ADR 86).
    products: await productNamesIn(products.map(productSummary), getPreferences(request).language),
  };
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { filter, products } = loaderData;
  return (
    <Page
      title={t("shop.heading")}
      intro={t("shop.intro")}
      width="max-w-6xl"
      // The category is the one query parameter that changes what the page lists.
      share={{ description: t("shop.intro"), path: filter === "all" ? "/shop" : `/shop?category=${filter}` }}
    >
      <nav aria-label={t("shop.filterLabel")} className="mb-8">
        <ul className="flex flex-wrap justify-center gap-2">
          {shopFilters.map((option) => (
            <li key={option}>
              <Link
                to={option === "all" ? "/shop" : `/shop?category=${option}`}
                aria-current={option === filter ? "page" : undefined}
                className={`inline-flex min-h-11 items-center rounded-full border px-4 font-display text-sm ${
                  option === filter
                    ? "border-primary bg-primary text-on-primary"
                    : "border-line hover:border-primary"
                }`}
                preventScrollReset
              >
                {t(`shop.filters.${option}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {products.length === 0 ? (
        <p className="text-center italic">{t("shop.empty")}</p>
      ) : (
        <div className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </div>
      )}
    </Page>
  );
}
