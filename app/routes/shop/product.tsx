import "~/i18n/full-catalogue";
import { data, isRouteErrorResponse } from "react-router";
import { AddToCartForm } from "~/features/cart/add-to-cart";
import { excerptOf } from "~/features/content/excerpt.server";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { listGalleryItems } from "~/features/gallery/queries.server";
import { NotFoundScreen } from "~/features/layout/error-screen";
import { productAction, productSummary } from "~/features/shop/catalog";
import { MembershipBonus, Price, ProductCard, StockNote } from "~/features/shop/product-card";
import { getProduct, getRelatedProducts } from "~/features/shop/queries.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { bodyText, textField, translationsOf, untranslatedIn } from "~/features/translations/reading.server";
import { UntranslatedNote } from "~/features/translations/untranslated-note";
import { UploadedImage } from "~/features/uploads/uploaded-image";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { getPreferences } from "~/lib/preferences.server";
import { absolute, siteCard } from "~/lib/seo";
import { shareablePage } from "~/lib/shareable";
import { breadcrumbs, graph, product as productData } from "~/lib/structured-data";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { PageMeta, useSiteFacts } from "~/ui/page-meta";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/product";

export const headers = shareablePage;

export async function loader({ request, params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const product = id === undefined ? undefined : await getProduct(id);
  if (!product) throw data(null, { status: 404 });
  const [related, pieces, site] = await Promise.all([
    getRelatedProducts(product),
    product.variantKind === "gallery" ? listGalleryItems() : [],
    getSiteSettings(),
  ]);
  // The author's words in the page's language where translated (ADR 86): one query a kind, for the product
  // and its neighbours; the original with a note when the product has none. Prices and stock are the original's.
  const language = getPreferences(request).language;
  const [products, pieceTexts] = await Promise.all([
    translationsOf(
      "product",
      language,
      [product, ...related].map(({ id }) => String(id)),
    ),
    translationsOf(
      "gallery",
      language,
      pieces.map((piece) => piece.slug),
    ),
  ]);
  const translated = products.get(String(product.id));
  const untranslated = translated ? undefined : await untranslatedIn("product", String(product.id), language);
  const { descriptionMd: original, ...rest } = product;
  const descriptionMd = bodyText(translated, original);
  return {
    product: { ...rest, name: textField(translated, "name", rest.name), addedAt: rest.addedAt.toISOString() },
    // For search engines and previews: the description's opening as plain text.
    summary: excerptOf(descriptionMd, 155),
    html: renderMarkdownCached(descriptionMd),
    pieces: pieces.map(({ id, slug, title }) => ({
      id,
      title: textField(pieceTexts.get(slug), "title", title),
    })),
    related: related.map((item) => ({
      ...productSummary(item),
      name: textField(products.get(String(item.id)), "name", item.name),
    })),
    author: site.author,
    ...(untranslated ? { untranslated } : {}),
  };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product, html, pieces, related, summary, author, untranslated } = loaderData;
  const action = productAction(product);
  const site = useSiteFacts();
  const path = `/shop/product/${product.id}`;
  const url = absolute(site.origin, path);
  // An uploaded image's largest PNG or JPEG; an address-only image (an SVG) is no preview: the site's card.
  const image = product.picture
    ? {
        url: product.picture.src,
        width: product.picture.width,
        height: product.picture.height,
        alt: product.name,
      }
    : siteCard(product.name);
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageMeta
        title={product.name}
        description={summary || product.name}
        path={path}
        type="product"
        image={image}
        jsonLd={graph([
          productData({
            name: product.name,
            description: summary,
            url,
            image: absolute(site.origin, image.url),
            priceCents: product.priceCents,
            currency: product.currency,
            stock: product.stock > 0 ? "in" : "out",
          }),
          breadcrumbs([
            { name: site.name, url: `${site.origin}/` },
            { name: t("shop.heading"), url: `${site.origin}/shop` },
            { name: product.name, url },
          ]),
        ])}
      />
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
          {product.membershipDays > 0 ? (
            <p className="text-sm text-muted" data-testid="membership-days-rule">
              {t("shop.membershipDaysRule")}
            </p>
          ) : null}
          {action === "inquire" ? (
            <>
              <Link
                to={`/shop/product/${product.id}/inquire`}
                className={buttonClass("primary", "self-start")}
              >
                {t("shop.inquire")}
              </Link>
              {/* What the button does, whatever the description says: a message, not an order. */}
              <p className="text-muted">{t("shop.inquireNote", { author })}</p>
            </>
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
            {untranslated ? <UntranslatedNote path={path} {...untranslated} /> : null}
            <div lang={untranslated ? "en" : undefined}>
              <Prose html={html} />
            </div>
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
