import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

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

/** A reader's (or the author's) account. Username and e-mail are unique regardless of case. */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    /** argon2id PHC string; null for accounts made through a social sign-in only. */
    passwordHash: text("password_hash"),
    role: text("role", { enum: ["reader", "author"] })
      .notNull()
      .default("reader"),
    /** Cached sum of the coin ledger, written in the same transaction as each entry. */
    coinBalance: integer("coin_balance").notNull().default(0),
    language: text("language"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower").on(sql`lower(${t.email})`),
    check("users_coin_balance_non_negative", sql`${t.coinBalance} >= 0`),
    check("users_role_known", sql`${t.role} in ('reader', 'author')`),
  ],
);

/** Server-side sessions: only the hash of the cookie's token is stored. Revoking deletes the row. */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    remember: boolean("remember").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** Absolute expiry, whatever the activity. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id").on(t.userId)],
);

export const ledgerReasons = ["welcome", "purchase", "unlock", "refund", "admin"] as const;

/** The append-only coin ledger; a user's balance is the sum of its entries. */
export const coinLedger = pgTable(
  "coin_ledger",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    reason: text("reason", { enum: ledgerReasons }).notNull(),
    reference: text("reference"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("coin_ledger_user_id").on(t.userId),
    check(
      "coin_ledger_reason_known",
      sql`${t.reason} in ('welcome', 'purchase', 'unlock', 'refund', 'admin')`,
    ),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("password_reset_tokens_user_id").on(t.userId)],
);

/** A social sign-in identity, keyed on (provider, subject) and never on e-mail. */
export const oauthIdentities = pgTable(
  "oauth_identities",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("oauth_identities_provider_subject").on(t.provider, t.subject),
    index("oauth_identities_user_id").on(t.userId),
  ],
);

/** An OAuth sign-in in progress: its state (hashed), PKCE verifier and where to go after. Single use. */
export const oauthRequests = pgTable("oauth_requests", {
  stateHash: text("state_hash").primaryKey(),
  provider: text("provider").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  redirectTo: text("redirect_to").notNull().default("/account"),
  /** Set when a signed-in reader links a provider to their account. */
  linkUserId: integer("link_user_id").references(() => users.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Counters for throttling (sign-in, sign-up, reset requests), shared by every app instance. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

/** A paid chapter unlocked for good by spending coins; one row per reader and chapter. */
export const chapterUnlocks = pgTable(
  "chapter_unlocks",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    coinsSpent: integer("coins_spent").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("chapter_unlocks_user_chapter").on(t.userId, t.chapterId)],
);

/** A signed-in reader's place in a chapter (visitors keep theirs in browser storage). */
export const readingProgress = pgTable(
  "reading_progress",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    /** 0 to 1: how far down the chapter the reader has scrolled. */
    scrollPosition: real("scroll_position").notNull().default(0),
    /** The paragraph at the top of the screen, so the place survives a change of font size. */
    paragraph: integer("paragraph").notNull().default(0),
    completionPercentage: integer("completion_percentage").notNull().default(0),
    readingTimeSeconds: integer("reading_time_seconds").notNull().default(0),
    completed: boolean("completed").notNull().default(false),
    bookmarks: integer("bookmarks").array().notNull().default(sql`'{}'::integer[]`),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.chapterId] }),
    check("reading_progress_scroll_range", sql`${t.scrollPosition} >= 0 and ${t.scrollPosition} <= 1`),
    check("reading_progress_completion_range", sql`${t.completionPercentage} between 0 and 100`),
  ],
);

export const fontFamilies = ["serif", "sans-serif", "gothic", "dyslexic"] as const;

/** A signed-in reader's reading settings, rendered by the server so the first paint is right. */
export const readingSettings = pgTable(
  "reading_settings",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fontSize: integer("font_size").notNull().default(16),
    fontFamily: text("font_family", { enum: fontFamilies }).notNull().default("serif"),
    lineHeight: real("line_height").notNull().default(1.75),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("reading_settings_font_size", sql`${t.fontSize} in (14, 16, 18, 20)`),
    check("reading_settings_line_height", sql`${t.lineHeight} in (1.5, 1.75, 2)`),
  ],
);

/**
 * A counter that every write to the published content (chapters, volumes, wiki, gallery, products, tiers,
 * fundraiser, site settings, legal pages) moves, through statement triggers in the migrations. Each app
 * instance polls it, so cached pages are dropped everywhere within a second of any change, whoever made it.
 */
export const contentRevision = pgTable(
  "content_revision",
  {
    id: integer("id").primaryKey().default(1),
    revision: integer("revision").notNull().default(0),
  },
  (t) => [check("content_revision_single_row", sql`${t.id} = 1`)],
);

/** A coin pack sold on /coins (content the author edits: `content/coin-packs/`). */
export const coinPacks = pgTable(
  "coin_packs",
  {
    key: text("key").primaryKey(),
    coins: integer("coins").notNull(),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    description: text("description").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [
    check("coin_packs_coins_positive", sql`${t.coins} > 0`),
    check("coin_packs_price_positive", sql`${t.priceCents} > 0`),
  ],
);

export const paymentKinds = ["coins", "product", "subscription"] as const;
export type PaymentKind = (typeof paymentKinds)[number];
export const paymentStatuses = ["pending", "paid", "failed", "refunded", "disputed"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * One attempt to pay, created before the reader goes to the provider. What it grants (coins, membership
 * days, a support tier) is fixed here by the server at creation; the provider's confirmation only moves
 * the status, and only when its amount and currency match these.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: paymentKinds }).notNull(),
    provider: text("provider").notNull(),
    /** The provider's checkout session id (for the test provider, an unguessable token). */
    providerSessionId: text("provider_session_id").unique(),
    /** The provider's id of the money movement (Stripe payment intent), learnt on confirmation. */
    providerPaymentId: text("provider_payment_id"),
    status: text("status", { enum: paymentStatuses }).notNull().default("pending"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    coins: integer("coins").notNull().default(0),
    coinPackKey: text("coin_pack_key"),
    membershipDays: integer("membership_days").notNull().default(0),
    tierKey: text("tier_key", { enum: tierKeys }),
    refundedCents: integer("refunded_cents").notNull().default(0),
    coinsReversed: integer("coins_reversed").notNull().default(0),
    /** The chapter (by number) the purchase started from: the payer returns there (ADR 18). */
    chapterNumber: integer("chapter_number"),
    /** "Buy and unlock": the confirmed payment also unlocks `chapterNumber`, in the same transaction. */
    unlockChapter: boolean("unlock_chapter").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_user_id").on(t.userId),
    index("payments_provider_payment_id").on(t.providerPaymentId),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
    check("payments_coins_non_negative", sql`${t.coins} >= 0`),
    check("payments_chapter_number_range", sql`${t.chapterNumber} between 1 and 999999`),
    check("payments_unlock_needs_chapter", sql`not ${t.unlockChapter} or ${t.chapterNumber} is not null`),
    check("payments_refunded_range", sql`${t.refundedCents} between 0 and ${t.amountCents}`),
    check("payments_kind_known", sql`${t.kind} in ('coins', 'product', 'subscription')`),
    check("payments_status_known", sql`${t.status} in ('pending', 'paid', 'failed', 'refunded', 'disputed')`),
  ],
);

/** Every provider event acted on, by id: a redelivered event finds its row and changes nothing. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    outcome: text("outcome").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** Membership days granted by a purchase (DESIGN.md 3); revoked when the payment is refunded or disputed. */
export const membershipGrants = pgTable(
  "membership_grants",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentId: integer("payment_id")
      .unique()
      .references(() => payments.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("membership_grants_user_id").on(t.userId),
    check("membership_grants_days_positive", sql`${t.days} > 0`),
  ],
);

/** A support-tier subscription at the provider; grants its tier while active and paid up. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id").notNull(),
    /** The checkout payment that started it: a refund or dispute of that payment ends the subscription. */
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    tierKey: text("tier_key", { enum: tierKeys }).notNull(),
    status: text("status").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_provider_id").on(t.provider, t.providerSubscriptionId),
    index("subscriptions_user_id").on(t.userId),
  ],
);
