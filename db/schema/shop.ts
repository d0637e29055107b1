/** The shop: its catalogue (content the author edits), readers' carts, and orders with their lines. */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { galleryItems } from "./content";
import { payments } from "./payments";
import { accountId, ownerId } from "./users";

export const productCategories = ["books", "prints", "limited"] as const;
export type ProductCategory = (typeof productCategories)[number];

/** Where a product's variants come from: "gallery" means one variant per gallery piece (the Art Print). */
export const variantKinds = ["gallery"] as const;
export type VariantKind = (typeof variantKinds)[number];

export const products = pgTable(
  "products",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    descriptionMd: text("description_md").notNull().default(""),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    category: text("category", { enum: productCategories }).notNull(),
    /** Days of membership each unit grants (docs/product-rules.md "Membership tiers"). */
    membershipDays: integer("membership_days").notNull().default(0),
    /** Units left to sell: lowered when a checkout reserves them, raised when a reservation is released. */
    stock: integer("stock").notNull().default(0),
    imageUrl: text("image_url").notNull(),
    /** Set when the buyer must choose a variant; null for a product sold as it is. */
    variantKind: text("variant_kind", { enum: variantKinds }),
    /** Physical goods need a shipping address at checkout. */
    requiresShipping: boolean("requires_shipping").notNull().default(true),
    /** The buyer may write a dedication note at checkout (the signed book). */
    offersDedication: boolean("offers_dedication").notNull().default(false),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("products_price_non_negative", sql`${t.priceCents} >= 0`),
    check("products_stock_non_negative", sql`${t.stock} >= 0`),
    check("products_membership_days_non_negative", sql`${t.membershipDays} >= 0`),
    check("products_category_known", sql`${t.category} in ('books', 'prints', 'limited')`),
    check("products_variant_kind_known", sql`${t.variantKind} is null or ${t.variantKind} in ('gallery')`),
  ],
);

/** A signed-in reader's cart: one row per product and variant, so it follows them across devices. */
export const cartItems = pgTable(
  "cart_items",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The chosen variant (a gallery piece's id for variant kind "gallery"); null when the product has none. */
    variantId: integer("variant_id").references(() => galleryItems.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cart_items_user_product_variant").on(
      t.userId,
      t.productId,
      sql`coalesce(${t.variantId}, 0)`,
    ),
    check(
      "cart_items_quantity_range",
      sql`${t.quantity} between 1 and 5` /* MAX_LINE_QUANTITY, app/features/cart/lines.ts */,
    ),
  ],
);

export const orderStatuses = ["pending", "paid", "shipped", "refunded", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * A merchandise order. Created `pending` with its payment, its lines, prices and address copied at that
 * moment, and its units taken from stock (reserved) until `reservedUntil`; it becomes `paid` only on the
 * provider's confirmation. A declined, expired or refunded order gives its units back (`stockReleasedAt`).
 */
export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    userId: accountId(),
    paymentId: integer("payment_id")
      .notNull()
      .unique()
      .references(() => payments.id, { onDelete: "cascade" }),
    status: text("status", { enum: orderStatuses }).notNull().default("pending"),
    totalCents: integer("total_cents").notNull(),
    currency: text("currency").notNull(),
    shipName: text("ship_name"),
    shipLine1: text("ship_line1"),
    shipLine2: text("ship_line2"),
    shipCity: text("ship_city"),
    shipPostalCode: text("ship_postal_code"),
    /** ISO 3166-1 alpha-2. */
    shipCountry: text("ship_country"),
    dedication: text("dedication"),
    reservedUntil: timestamp("reserved_until", { withTimezone: true }).notNull(),
    stockReleasedAt: timestamp("stock_released_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Set with the status 'shipped' by the author (ADR 43), with the carrier and its tracking number. */
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("orders_user_id").on(t.userId),
    index("orders_created_at").on(t.createdAt),
    index("orders_pending_reserved_until").on(t.reservedUntil).where(sql`${t.status} = 'pending'`),
    check("orders_total_positive", sql`${t.totalCents} > 0`),
    check("orders_status_known", sql`${t.status} in ('pending', 'paid', 'shipped', 'refunded', 'cancelled')`),
  ],
);

/** One product (and variant) in an order, with its name, price and membership days as they were when ordered. */
export const orderLines = pgTable(
  "order_lines",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    variantId: integer("variant_id"),
    productName: text("product_name").notNull(),
    variantLabel: text("variant_label"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    /** Days each unit grants. */
    membershipDays: integer("membership_days").notNull().default(0),
  },
  (t) => [
    index("order_lines_order_id").on(t.orderId),
    check(
      "order_lines_quantity_range",
      sql`${t.quantity} between 1 and 5` /* MAX_LINE_QUANTITY, app/features/cart/lines.ts */,
    ),
    check("order_lines_price_positive", sql`${t.unitPriceCents} > 0`),
    check("order_lines_membership_days_non_negative", sql`${t.membershipDays} >= 0`),
  ],
);

export const inquiryStatuses = ["new", "answered"] as const;
export type InquiryStatus = (typeof inquiryStatuses)[number];

/**
 * An inquiry sent from a product's Inquire form (ADR 26, kept since ADR 59): the sender's name, address and
 * message as given, for the author to find in the admin and mark answered. Not tied to an account (a
 * visitor's form); the product's name is kept as it was asked about, in case the product goes.
 */
export const inquiries = pgTable(
  "inquiries",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** The language of the page it was written from (the sender's copy went out in it). */
    language: text("language").notNull(),
    status: text("status", { enum: inquiryStatuses }).notNull().default("new"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    // The admin's list: newest first, all or one status.
    index("inquiries_status_id").on(t.status, t.id),
    check("inquiries_status_known", sql`${t.status} in ('new', 'answered')`),
    check("inquiries_answered_at", sql`(${t.status} = 'answered') = (${t.answeredAt} is not null)`),
    // The form's limits (features/inquiries/schema.ts), a last guard.
    check("inquiries_name_length", sql`char_length(${t.name}) between 1 and 100`),
    check("inquiries_email_length", sql`char_length(${t.email}) <= 254`),
    check("inquiries_message_length", sql`char_length(${t.message}) between 1 and 2000`),
  ],
);
