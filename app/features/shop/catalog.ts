import type { ProductCategory } from "#db/schema";

export const shopFilters = ["all", "books", "prints", "limited", "new"] as const;
export type ShopFilter = (typeof shopFilters)[number];

const NEW_FOR_DAYS = 30;

/** "New" means added in the last 30 days. */
export function isNewProduct(addedAt: Date, now: Date): boolean {
  return now.getTime() - addedAt.getTime() <= NEW_FOR_DAYS * 24 * 60 * 60 * 1000;
}

export function matchesFilter(
  product: { category: ProductCategory; addedAt: Date },
  filter: ShopFilter,
  now: Date,
): boolean {
  if (filter === "all") return true;
  if (filter === "new") return isNewProduct(product.addedAt, now);
  return product.category === filter;
}

/** What a product tile shows (ProductCard): only these fields travel to the page. */
export type ProductSummary = {
  id: number;
  name: string;
  priceCents: number;
  currency: string;
  imageUrl: string;
  membershipDays: number;
};

export function productSummary({
  id,
  name,
  priceCents,
  currency,
  imageUrl,
  membershipDays,
}: ProductSummary): ProductSummary {
  return { id, name, priceCents, currency, imageUrl, membershipDays };
}
