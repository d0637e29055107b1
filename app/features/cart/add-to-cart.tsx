import type { FormEvent } from "react";
import { useFetcher, useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { MAX_LINE_QUANTITY } from "./lines";
import type { CartReply } from "./summary";

const selectClass =
  "min-h-11 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink";

/** 1 to the most one line may hold: the smaller of 5 and the stock. */
export function quantityChoices(stock: number): number[] {
  return Array.from({ length: Math.max(0, Math.min(MAX_LINE_QUANTITY, stock)) }, (_, i) => i + 1);
}

/**
 * "Add to cart" (ADR 24): a plain form posting to /cart, so it works without JavaScript (the server goes back
 * to this page); with JavaScript a fetcher sends it, the page stays, a live region says "Added to cart" and
 * the loaders (the cart bar) refresh. `pieces` makes a gallery piece a required choice (the Art Print);
 * `compact` adds one unit with no quantity choice (a product tile).
 */
export function AddToCartForm({
  productId,
  productName,
  stock,
  pieces,
  compact = false,
}: {
  productId: number;
  productName: string;
  stock: number;
  pieces?: { id: number; title: string }[];
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<CartReply>();
  const location = useLocation();
  const soldOut = stock <= 0;
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set("reply", "data");
    fetcher.submit(form, { method: "post", action: "/cart" });
  };
  const id = `add-${productId}`;
  return (
    <form method="post" action="/cart" onSubmit={onSubmit} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {pieces ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-piece`} className="font-display text-sm tracking-wide">
            {t("cart.add.piece")}
          </label>
          <select id={`${id}-piece`} name="variantId" required defaultValue="" className={selectClass}>
            <option value="" disabled>
              {t("cart.add.choosePiece")}
            </option>
            {pieces.map((piece) => (
              <option key={piece.id} value={piece.id}>
                {piece.title}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <input type="hidden" name="variantId" value="" />
      )}
      {compact ? (
        <input type="hidden" name="quantity" value="1" />
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-quantity`} className="font-display text-sm tracking-wide">
            {t("cart.add.quantity")}
          </label>
          <select
            id={`${id}-quantity`}
            name="quantity"
            defaultValue="1"
            disabled={soldOut}
            className={`${selectClass} max-w-32`}
          >
            {quantityChoices(stock).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      )}
      <button
        type="submit"
        disabled={soldOut || fetcher.state !== "idle"}
        aria-label={compact ? `${t("cart.add.button")}: ${productName}` : undefined}
        className={buttonClass("primary", "disabled:cursor-not-allowed disabled:opacity-60")}
      >
        {soldOut
          ? t("cart.add.soldOut")
          : fetcher.state !== "idle"
            ? t("cart.add.adding")
            : t("cart.add.button")}
      </button>
      <p role="status" className="text-sm text-muted">
        {reply?.ok ? t("cart.add.added") : ""}
      </p>
      {reply && !reply.ok ? (
        <p role="alert" className="text-sm text-accent">
          {t(reply.error)}
        </p>
      ) : null}
    </form>
  );
}
