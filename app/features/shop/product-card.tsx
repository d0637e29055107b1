import { AddToCartForm } from "~/features/cart/add-to-cart";
import { BuyNowForm } from "~/features/cart/buy-now";
import { tierForMembershipDays } from "~/features/membership/tiers";
import { UploadedImage } from "~/features/uploads/uploaded-image";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import { type ProductSummary, productAction } from "./catalog";

/** A tile's width: a third of the shop's 72rem from 64rem up, half from 30rem, else the screen's. */
const CARD_SIZES = "(min-width: 64rem) 23rem, (min-width: 30rem) 50vw, 100vw";

/** Fewer than this many left reads "Only N left". */
const LOW_STOCK = 10;

/** "47 in stock", "Only 3 left" or "Sold out" (docs/product-rules.md "Shop"). */
export function StockNote({ stock }: { stock: number }) {
  const { t } = useTranslation();
  if (stock <= 0) return <p className="font-display text-accent">{t("cart.stock.soldOut")}</p>;
  if (stock < LOW_STOCK) return <p className="text-accent">{t("cart.stock.onlyLeft", { count: stock })}</p>;
  return <p className="text-muted">{t("cart.stock.inStock", { count: stock })}</p>;
}

/** "Observer membership · 30 days" for products that grant membership; nothing otherwise. */
export function MembershipBonus({ days }: { days: number }) {
  const { t } = useTranslation();
  const tier = tierForMembershipDays(days);
  if (tier === "free") return null;
  return (
    <p className="self-start rounded-full border border-accent px-3 py-0.5 text-sm text-accent">
      {t("shop.membershipBonus", { tier: t(`tiers.${tier}`), count: days })}
    </p>
  );
}

export function Price({ cents, currency }: { cents: number; currency: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  return <>{cents === 0 ? t("shop.contact") : format.money(cents, currency)}</>;
}

/**
 * A product tile: its name links to its page; its button adds one to the cart (a product sold as it is),
 * leads to the page to choose a piece (the Art Print), or to ask about it (priced 0). With `buyNow` (home's
 * merchandise) the button reads "Buy Now": the piece goes into the cart and the buyer on to the checkout,
 * or, for a piece to choose, to its page.
 */
export function ProductCard({ product, buyNow = false }: { product: ProductSummary; buyNow?: boolean }) {
  const { t } = useTranslation();
  const action = productAction(product);
  const page = `/shop/product/${product.id}`;
  const linkText = t(
    action === "inquire" ? "shop.inquire" : buyNow ? "cart.add.buyNow" : "cart.add.choosePieceLink",
  );
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-line bg-[color:var(--surface)]">
      <UploadedImage
        src={product.imageUrl}
        picture={product.picture}
        sizes={CARD_SIZES}
        alt=""
        width={600}
        height={600}
        loading="lazy"
        className="aspect-square w-full object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-display text-lg">
          <Link to={page} className="underline-offset-2 hover:underline" lang={product.lang}>
            {product.name}
          </Link>
        </h3>
        <p className="text-xl text-primary">
          <Price cents={product.priceCents} currency={product.currency} />
        </p>
        <MembershipBonus days={product.membershipDays} />
        <div className="mt-auto pt-2">
          {action === "add" || action === "sold-out" ? (
            buyNow ? (
              <BuyNowForm productId={product.id} productName={product.name} stock={product.stock} />
            ) : (
              <AddToCartForm
                productId={product.id}
                productName={product.name}
                stock={product.stock}
                compact
              />
            )
          ) : (
            <Link
              to={page}
              className={buttonClass("primary", "w-full")}
              aria-label={`${linkText}: ${product.name}`}
            >
              {linkText}
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
