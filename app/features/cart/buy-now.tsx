import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";

/**
 * "Buy Now" (home's merchandise): one unit into the cart, then straight to /checkout. A plain form posting to
 * /cart, with JavaScript or without: the page is left for the checkout either way, so a fetch would gain
 * nothing. A visitor is asked to sign in there and keeps the cart (ADR 24). A product whose variant must be
 * chosen, or that is priced 0, has no such form: its tile links to its page (ProductCard).
 */
export function BuyNowForm({
  productId,
  productName,
  stock,
}: {
  productId: number;
  productName: string;
  stock: number;
}) {
  const { t } = useTranslation();
  const soldOut = stock <= 0;
  return (
    <form method="post" action="/cart">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="variantId" value="" />
      <input type="hidden" name="quantity" value="1" />
      <input type="hidden" name="redirectTo" value="/checkout" />
      <button
        type="submit"
        disabled={soldOut}
        aria-label={`${t(soldOut ? "cart.add.soldOut" : "cart.add.buyNow")}: ${productName}`}
        className={buttonClass("primary", "w-full disabled:cursor-not-allowed disabled:opacity-60")}
      >
        {soldOut ? t("cart.add.soldOut") : t("cart.add.buyNow")}
      </button>
    </form>
  );
}
