/** The shop's catalogue (content the author edits). */
import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const productCategories = ["books", "prints", "limited"] as const;
export type ProductCategory = (typeof productCategories)[number];

export const products = pgTable(
  "products",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    descriptionMd: text("description_md").notNull().default(""),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    category: text("category", { enum: productCategories }).notNull(),
    membershipDays: integer("membership_days").notNull().default(0),
    stock: integer("stock").notNull().default(0),
    imageUrl: text("image_url").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("products_price_non_negative", sql`${t.priceCents} >= 0`),
    check("products_stock_non_negative", sql`${t.stock} >= 0`),
    check("products_membership_days_non_negative", sql`${t.membershipDays} >= 0`),
    check("products_category_known", sql`${t.category} in ('books', 'prints', 'limited')`),
  ],
);
