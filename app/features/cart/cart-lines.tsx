import { Form, useLocation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { useFormat } from "~/ui/use-format";
import { quantityChoices } from "./add-to-cart";
import type { CartLineView } from "./summary";

/** The fields naming one line to /cart, and where to come back to. */
function LineFields({
  line,
  back,
  intent,
}: {
  line: Pick<CartLineView, "productId" | "variantId">;
  back: string;
  intent: string;
}) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={line.productId} />
      <input type="hidden" name="variantId" value={line.variantId ?? ""} />
      <input type="hidden" name="redirectTo" value={back} />
    </>
  );
}

/** Remove: one line out of the cart, back to this page. */
export function RemoveLine({
  line,
  name,
  back,
}: {
  line: Pick<CartLineView, "productId" | "variantId">;
  name: string;
  back: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/cart">
      <LineFields line={line} back={back} intent="remove" />
      <button
        type="submit"
        className={buttonClass("ghost")}
        aria-label={`${t("cart.lines.remove")}: ${name}`}
      >
        {t("cart.lines.remove")}
      </button>
    </Form>
  );
}

/**
 * The priced lines of a cart (ADR 24), for the checkout page: each with its quantity (1 to the smaller of 5
 * and the stock) and Update, Remove, and Clear cart for all. Every control is a form posting to /cart, so it
 * works without JavaScript and comes back to this page.
 */
export function CartLines({ lines }: { lines: CartLineView[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  if (!lines.length) return <p className="text-center italic">{t("cart.lines.empty")}</p>;
  const currency = lines[0]?.currency ?? "USD";
  const total = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  return (
    <section aria-label={t("cart.lines.label")} className="flex flex-col gap-4">
      <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {lines.map((line) => {
          const key = `${line.productId}.${line.variantId ?? ""}`;
          const name = line.variantLabel ? `${line.name} — ${line.variantLabel}` : line.name;
          return (
            <li key={key} className="flex flex-wrap items-end justify-between gap-3 p-4">
              <div className="min-w-0 flex-1 basis-48">
                <p className="font-display text-lg">{name}</p>
                <p className="text-sm text-muted">
                  {t("cart.lines.each", {
                    price: format.money(line.unitPriceCents, line.currency, { minor: true }),
                  })}
                </p>
              </div>
              <Form method="post" action="/cart" className="flex items-end gap-2">
                <LineFields line={line} back={back} intent="set" />
                <select
                  name="quantity"
                  defaultValue={String(line.quantity)}
                  aria-label={t("cart.lines.quantity", { name })}
                  className="min-h-11 rounded-md border border-line bg-[color:var(--surface)] px-3 text-base"
                >
                  {quantityChoices(line.stock).map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
                <button type="submit" className={buttonClass("outline")}>
                  {t("cart.lines.update")}
                </button>
              </Form>
              <RemoveLine line={line} name={name} back={back} />
              <p className="w-24 text-right font-display text-lg">
                {format.money(line.unitPriceCents * line.quantity, line.currency, { minor: true })}
              </p>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Form method="post" action="/cart">
          <input type="hidden" name="intent" value="clear" />
          <input type="hidden" name="redirectTo" value={back} />
          <button type="submit" className={buttonClass("ghost")}>
            {t("cart.lines.clear")}
          </button>
        </Form>
        <p className="font-display text-xl">
          {t("cart.lines.total")}: {format.money(total, currency, { minor: true })}
        </p>
      </div>
    </section>
  );
}
