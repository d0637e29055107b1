import type { ProductCategory, VariantKind } from "#db/schema";
import type { Picture } from "~/features/uploads/picture";

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
  stock: number;
  variantKind: VariantKind | null;
  /** The image as a `<picture>` when it is an upload. */
  picture?: Picture;
  /** "en" on a page in another language when the name is the original's (features/shop/translated.server.ts). */
  lang?: "en";
};

/** What a product list shows of each product, and nothing more of its row (route data is budgeted by byte). */
const summaryKeys = [
  "id",
  "name",
  "priceCents",
  "currency",
  "imageUrl",
  "membershipDays",
  "stock",
  "variantKind",
  "picture",
  "lang",
] as const satisfies readonly (keyof ProductSummary)[];

export function productSummary(product: ProductSummary): ProductSummary {
  return Object.fromEntries(
    summaryKeys.filter((key) => product[key] !== undefined).map((key) => [key, product[key]]),
  ) as ProductSummary;
}

/** What a product offers the buyer: a price to ask about, a variant to choose first, the cart, or nothing left. */
export function productAction(product: Pick<ProductSummary, "priceCents" | "stock" | "variantKind">) {
  if (product.priceCents <= 0) return "inquire" as const;
  if (product.stock <= 0) return "sold-out" as const;
  return product.variantKind ? ("choose" as const) : ("add" as const);
}
