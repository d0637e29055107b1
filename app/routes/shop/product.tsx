import "~/i18n/full-catalogue";
import { data, isRouteErrorResponse } from "react-router";
import { AddToCartForm } from "~/features/cart/add-to-cart";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { listGalleryItems } from "~/features/gallery/queries.server";
import { NotFoundScreen } from "~/features/layout/error-screen";
import { productAction, productSummary } from "~/features/shop/catalog";
import { MembershipBonus, Price, ProductCard, StockNote } from "~/features/shop/product-card";
import { getProduct, getRelatedProducts } from "~/features/shop/queries.server";
import { UploadedImage } from "~/features/uploads/uploaded-image";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { shareablePage } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/product";

export const headers = shareablePage;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const product = id === undefined ? undefined : await getProduct(id);
  if (!product) throw data(null, { status: 404 });
  const [related, pieces] = await Promise.all([
    getRelatedProducts(product),
    product.variantKind === "gallery" ? listGalleryItems() : [],
  ]);
  const { descriptionMd, ...rest } = product;
  return {
    product: { ...rest, addedAt: rest.addedAt.toISOString() },
    html: renderMarkdownCached(descriptionMd),
    pieces: pieces.map(({ id, title }) => ({ id, title })),
    related: related.map(productSummary),
  };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product, html, pieces, related } = loaderData;
  const action = productAction(product);
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <p className="mb-6">
        <Link to="/shop" className="text-primary underline underline-offset-2">
          {t("shop.backToShop")}
        </Link>
      </p>
      <div className="grid gap-8 md:grid-cols-2">
        <UploadedImage
          src={product.imageUrl}
          picture={product.picture}
          sizes="(min-width: 72rem) 34rem, (min-width: 48rem) 50vw, 100vw"
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
          {action === "inquire" ? (
            <Link to={`/shop/product/${product.id}/inquire`} className={buttonClass("primary", "self-start")}>
              {t("shop.inquire")}
            </Link>
          ) : (
            <>
              <StockNote stock={product.stock} />
              <AddToCartForm
                productId={product.id}
                productName={product.name}
                stock={product.stock}
                pieces={product.variantKind === "gallery" ? pieces : undefined}
              />
            </>
          )}
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

/** An unknown product: the 404 page, with the way back to the shop. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <>
      <NotFoundScreen />
      <p className="-mt-10 mb-10 text-center">
        <Link to="/shop" className="text-primary underline underline-offset-2">
          {t("cart.productNotFound.toShop")}
        </Link>
      </p>
    </>
  );
}
