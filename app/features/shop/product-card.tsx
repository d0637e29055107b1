import { tierForMembershipDays } from "~/features/membership/tiers";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { ProductSummary } from "./catalog";

/** "Observer membership · 30 days" for products that grant membership; nothing otherwise. */
export function MembershipBonus({ days }: { days: number }) {
  const { t } = useTranslation();
  const tier = tierForMembershipDays(days);
  if (tier === "free") return null;
  return (
    <p className="inline-block rounded-full border border-accent px-3 py-0.5 text-sm text-accent">
      {t("shop.membershipBonus", { tier: t(`tiers.${tier}`), count: days })}
    </p>
  );
}

export function Price({ cents, currency }: { cents: number; currency: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  return <>{cents === 0 ? t("shop.contact") : format.money(cents, currency)}</>;
}

/** A product tile linking to its page; the button reads "Buy Now", or "Inquire" when the price is 0. */
export function ProductCard({ product }: { product: ProductSummary }) {
  const { t } = useTranslation();
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-line bg-[color:var(--surface)]">
      <img
        src={product.imageUrl}
        alt=""
        width={600}
        height={600}
        loading="lazy"
        className="aspect-square w-full object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-display text-lg">{product.name}</h3>
        <p className="text-xl text-primary">
          <Price cents={product.priceCents} currency={product.currency} />
        </p>
        <MembershipBonus days={product.membershipDays} />
        <Link
          to={`/shop/product/${product.id}`}
          className={buttonClass("primary", "mt-auto")}
          aria-label={`${product.priceCents === 0 ? t("shop.inquire") : t("shop.buyNow")}: ${product.name}`}
        >
          {product.priceCents === 0 ? t("shop.inquire") : t("shop.buyNow")}
        </Link>
      </div>
    </article>
  );
}
