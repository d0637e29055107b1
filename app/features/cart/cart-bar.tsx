import { useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { CartSummary } from "./summary";

const CHECKOUT = "/checkout";

/**
 * The shop's cart bar (ADR 24): fixed to the bottom of the viewport while the cart holds something, with the
 * item count, the total at today's prices and the way to checkout. The page keeps room for it at its foot
 * (`body:has(.cart-bar)` in app.css), so it never covers the last of the content, footer included.
 */
export function CartBar({ cart }: { cart: CartSummary | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  // On the checkout itself the link would lead to the page the reader is on: the bar keeps only the summary.
  const atCheckout = useLocation().pathname === CHECKOUT;
  if (!cart) return null;
  return (
    <section
      aria-label={t("cart.bar.label")}
      className="cart-bar fixed inset-x-0 bottom-0 z-30 border-t border-line bg-[color:var(--bar)] shadow-[0_-4px_16px_rgb(0_0_0/0.12)]"
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <p aria-live="polite" className="font-display text-base sm:text-lg" data-testid="cart-bar-summary">
          {t("cart.bar.summary", {
            count: cart.count,
            items: t("cart.bar.items", { count: cart.count }),
            total: format.money(cart.totalCents, cart.currency, { minor: true }),
          })}
        </p>
        {atCheckout ? null : (
          <Link to={CHECKOUT} className={buttonClass("primary")}>
            {t("cart.bar.checkout")}
          </Link>
        )}
      </div>
    </section>
  );
}
