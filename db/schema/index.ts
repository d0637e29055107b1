import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** The one-row table of site-wide settings the author edits (title, author, about, contact). */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer("id").primaryKey().default(1),
    title: text("title").notNull(),
    tagline: text("tagline").notNull(),
    /** The story summary shown at the top of the table of contents. */
    synopsis: text("synopsis").notNull().default(""),
    author: text("author").notNull(),
    location: text("location").notNull(),
    role: text("role").notNull(),
    startedYear: integer("started_year").notNull(),
    email: text("email").notNull(),
    socialLabel: text("social_label").notNull(),
    socialUrl: text("social_url").notNull(),
    communityLabel: text("community_label").notNull(),
    communityUrl: text("community_url").notNull(),
    aboutMd: text("about_md").notNull(),
  },
  (t) => [check("site_settings_single_row", sql`${t.id} = 1`)],
);

export const legalPages = pgTable("legal_pages", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  bodyMd: text("body_md").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

export const volumes = pgTable("volumes", {
  id: serial("id").primaryKey(),
  number: integer("number").notNull().unique(),
  title: text("title").notNull(),
  summaryMd: text("summary_md").notNull().default(""),
  artworkUrl: text("artwork_url"),
});

export type Artwork = { url: string; position: "before" | "after"; caption: string };

export const chapters = pgTable(
  "chapters",
  {
    id: serial("id").primaryKey(),
    number: integer("number").notNull().unique(),
    volumeId: integer("volume_id")
      .notNull()
      .references(() => volumes.id),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    /** Computed from the text at import, never typed by hand. */
    wordCount: integer("word_count").notNull(),
    releaseAt: timestamp("release_at", { withTimezone: true }).notNull(),
    coinsRequired: integer("coins_required").notNull().default(0),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    artwork: jsonb("artwork").$type<Artwork[]>().notNull().default([]),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("published"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("chapters_coins_required_non_negative", sql`${t.coinsRequired} >= 0`),
    check("chapters_status_known", sql`${t.status} in ('draft', 'published')`),
  ],
);

export const wikiSections = ["characters", "world", "items"] as const;
export type WikiSection = (typeof wikiSections)[number];

export const wikiPages = pgTable(
  "wiki_pages",
  {
    id: serial("id").primaryKey(),
    section: text("section", { enum: wikiSections }).notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    bodyMd: text("body_md").notNull(),
    imageUrl: text("image_url"),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [
    uniqueIndex("wiki_pages_section_slug").on(t.section, t.slug),
    check("wiki_pages_section_known", sql`${t.section} in ('characters', 'world', 'items')`),
  ],
);

export const galleryItems = pgTable("gallery_items", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  imageUrl: text("image_url").notNull(),
  descriptionMd: text("description_md").notNull().default(""),
  sortOrder: integer("sort_order").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

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

export const tierKeys = ["observer", "analyst", "first_human"] as const;
export type TierKey = (typeof tierKeys)[number];

export const supportTiers = pgTable(
  "support_tiers",
  {
    key: text("key", { enum: tierKeys }).primaryKey(),
    name: text("name").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    perks: text("perks").array().notNull().default(sql`'{}'::text[]`),
    pitch: text("pitch").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [check("support_tiers_amount_positive", sql`${t.amountCents} > 0`)],
);

export const fundraiserGoals = pgTable(
  "fundraiser_goals",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull().unique(),
    descriptionMd: text("description_md").notNull().default(""),
    targetCents: integer("target_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
  },
  (t) => [check("fundraiser_goals_target_positive", sql`${t.targetCents} > 0`)],
);

export const supporterTiers = ["Founder", "Sustainer", "Supporter"] as const;

export const supporters = pgTable(
  "supporters",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    tier: text("tier", { enum: supporterTiers }).notNull(),
    emoji: text("emoji").notNull().default(""),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    supportedAt: timestamp("supported_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("supporters_name_supported_at").on(t.name, t.supportedAt),
    check("supporters_amount_positive", sql`${t.amountCents} > 0`),
  ],
);
