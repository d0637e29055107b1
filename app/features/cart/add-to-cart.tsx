import { type FormEvent, useState } from "react";
import { useLocation, useRevalidator } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { MAX_LINE_QUANTITY } from "./limits";
import type { CartReply } from "./summary";

const selectClass =
  "min-h-11 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink";

/** 1 to the most one line may hold: the smaller of 5 and the stock. */
export function quantityChoices(stock: number): number[] {
  return Array.from({ length: Math.max(0, Math.min(MAX_LINE_QUANTITY, stock)) }, (_, i) => i + 1);
}

/**
 * "Add to cart" (ADR 24): a plain form posting to /cart, so it works without JavaScript (the server goes back
 * to this page); with JavaScript it goes to /cart/reply by fetch, the page stays, a live region says "Added
 * to cart" and the loaders (the cart bar) refresh. A plain fetch, not React Router's fetcher: the fetcher's
 * code would ride in the framework chunk every page loads, the chapter page's included (its budget). `pieces` makes a gallery piece a required choice (the Art Print);
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
  const revalidator = useRevalidator();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [reply, setReply] = useState<CartReply>();
  const soldOut = stock <= 0;
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setReply(undefined);
    try {
      const response = await fetch("/cart/reply", { method: "POST", body: form });
      const answer = (await response.json().catch(() => undefined)) as CartReply | undefined;
      setReply(answer?.ok !== undefined ? answer : { ok: false, error: "cart.errors.unreachable", back: "" });
      if (answer?.ok) await revalidator.revalidate();
    } catch {
      setReply({ ok: false, error: "cart.errors.unreachable", back: "" });
    } finally {
      setBusy(false);
    }
  };
  const id = `add-${productId}`;
  return (
    // The messages sit outside the controls' gap: empty, they take no room, so the button ends where a tile's
    // link does ("Choose a piece", "Inquire") and the tiles of a row line up.
    <form method="post" action="/cart" onSubmit={onSubmit} className="flex flex-col">
      <div className="flex flex-col gap-3">
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
          disabled={soldOut || busy}
          aria-label={compact ? `${t("cart.add.button")}: ${productName}` : undefined}
          className={buttonClass("primary", "disabled:cursor-not-allowed disabled:opacity-60")}
        >
          {soldOut ? t("cart.add.soldOut") : busy ? t("cart.add.adding") : t("cart.add.button")}
        </button>
      </div>
      <p role="status" className="text-sm text-muted not-empty:mt-3">
        {reply?.ok ? t("cart.add.added") : null}
      </p>
      {reply && !reply.ok ? (
        <p role="alert" className="mt-3 text-sm text-accent">
          {t(reply.error)}
        </p>
      ) : null}
    </form>
  );
}
