import { z } from "zod";
import { productCategories, type products, variantKinds } from "#db/schema";
import { artworkUrl, digestField, normalisedText, optionalInteger } from "~/lib/form-fields";

/** The product's categories and variant kinds, in the order the admin lists them ("none": sold as it is). */
export const productCategoryChoices = productCategories;
export const variantChoices = ["none", ...variantKinds] as const;

/** Limits of the product form (prices in cents; a description's most bytes of UTF-8). */
export const PRODUCT_LIMITS = {
  name: 120,
  priceCents: 1_000_000,
  stock: 100_000,
  membershipDays: 3650,
  descriptionBytes: 20_000,
} as const;

/** A checkbox: "on" when ticked, absent otherwise. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

/** A whole number in [min, max]; empty is 0. */
const count = (min: number, max: number, error: string) =>
  optionalInteger(min, max, error).transform((value) => value ?? 0);

/**
 * The product form (browser and action). A new product's `stock` is its first stock; an existing product's
 * stock is never "set to" from the form: `stockChange` adds (or, negative, removes) units, applied to the
 * stock as it is when the save runs, so units a checkout reserved or released meanwhile are kept (the
 * report of the admin-products branch says why). `base` is the digest of the product as the form opened it,
 * its stock left out (absent for a new product).
 */
export const productSchema = z.object({
  name: z
    .string({ error: "admin.products.errors.name" })
    .trim()
    .min(1, { error: "admin.products.errors.name" })
    .max(PRODUCT_LIMITS.name, { error: "admin.products.errors.name" }),
  descriptionMd: z
    .string({ error: "admin.products.errors.description" })
    .transform(normalisedText)
    .refine((text) => new TextEncoder().encode(text).length <= PRODUCT_LIMITS.descriptionBytes, {
      error: "admin.products.errors.description",
    }),
  priceCents: count(0, PRODUCT_LIMITS.priceCents, "admin.products.errors.price"),
  currency: z
    .string({ error: "admin.products.errors.currency" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { error: "admin.products.errors.currency" }),
  category: z.enum(productCategories, { error: "admin.products.errors.category" }),
  membershipDays: count(0, PRODUCT_LIMITS.membershipDays, "admin.products.errors.membershipDays"),
  stock: count(0, PRODUCT_LIMITS.stock, "admin.products.errors.stock").optional(),
  stockChange: count(
    -PRODUCT_LIMITS.stock,
    PRODUCT_LIMITS.stock,
    "admin.products.errors.stockChange",
  ).optional(),
  imageUrl: z
    .string({ error: "admin.products.errors.image" })
    .trim()
    .regex(artworkUrl, { error: "admin.products.errors.image" }),
  variantKind: z
    .enum(variantChoices, { error: "admin.products.errors.variant" })
    .transform((kind) => (kind === "none" ? null : kind)),
  requiresShipping: checkbox,
  offersDedication: checkbox,
  base: digestField.optional(),
});

export type ProductForm = z.output<typeof productSchema>;

const checked = (value: boolean) => (value ? "on" : "");

/**
 * The form's fields as it opens for a product (or empty for a new one): saved unchanged, they give the product
 * back as it was (its image included, an imported address as much as an upload), its stock left as it is.
 */
export function productFormValues(row?: typeof products.$inferSelect) {
  return {
    name: row?.name ?? "",
    descriptionMd: row?.descriptionMd ?? "",
    priceCents: String(row?.priceCents ?? 0),
    currency: row?.currency ?? "USD",
    category: row?.category ?? "books",
    membershipDays: String(row?.membershipDays ?? 0),
    stock: "0",
    stockChange: "0",
    imageUrl: row?.imageUrl ?? "",
    variantKind: row?.variantKind ?? "none",
    requiresShipping: checked(row?.requiresShipping ?? true),
    offersDedication: checked(row?.offersDedication ?? false),
  };
}

/** The form's fields, in its order. */
export const productFields = Object.keys(productFormValues()) as (keyof ReturnType<
  typeof productFormValues
>)[];
