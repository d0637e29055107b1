import "~/i18n/full-catalogue";
import { data } from "react-router";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { productSummary } from "~/features/shop/catalog";
import { MembershipBonus, Price, ProductCard } from "~/features/shop/product-card";
import { getProduct, getRelatedProducts } from "~/features/shop/queries.server";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { shareablePage } from "~/lib/shareable";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/product";

export const headers = shareablePage;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const product = id === undefined ? undefined : await getProduct(id);
  if (!product) throw data(null, { status: 404 });
  const related = await getRelatedProducts(product);
  const { descriptionMd, ...rest } = product;
  return {
    product: { ...rest, addedAt: rest.addedAt.toISOString() },
    html: renderMarkdownCached(descriptionMd),
    related: related.map(productSummary),
  };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product, html, related } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <p className="mb-6">
        <Link to="/shop" className="text-primary underline underline-offset-2">
          {t("shop.backToShop")}
        </Link>
      </p>
      <div className="grid gap-8 md:grid-cols-2">
        <img
          src={product.imageUrl}
          alt={product.name}
          width={600}
          height={600}
          className="aspect-square w-full rounded-xl border border-line object-cover"
        />
        <div className="flex flex-col gap-4">
          <p className="font-display text-sm tracking-widest text-accent uppercase">
            {t(`shop.filters.${product.category}`)}
          </p>
          <DocumentTitle name={product.name} />
          <h1 className="font-display text-3xl text-primary">{product.name}</h1>
          <p className="text-2xl">
            <Price cents={product.priceCents} currency={product.currency} />
          </p>
          <MembershipBonus days={product.membershipDays} />
          <p className={product.stock > 0 ? "text-muted" : "text-accent"}>
            {product.stock > 0 ? t("shop.inStock", { count: product.stock }) : t("shop.outOfStock")}
          </p>
          <section aria-labelledby="details">
            <h2 id="details" className="mb-2 font-display text-xl">
              {t("shop.details")}
            </h2>
            <Prose html={html} />
          </section>
        </div>
      </div>
      {related.length > 0 ? (
        <section aria-labelledby="related" className="mt-14">
          <h2 id="related" className="mb-6 text-center font-display text-2xl text-primary">
            {t("shop.related")}
          </h2>
          <div className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-3">
            {related.map((item) => (
              <ProductCard key={item.id} product={item} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}
