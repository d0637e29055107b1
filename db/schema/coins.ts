/** Coins: the ledger, chapters unlocked with coins and the packs sold for them. */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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
import { chapters } from "./content";
import { accountId, ownerId, users } from "./users";

export const ledgerReasons = ["welcome", "purchase", "unlock", "refund", "admin"] as const;

/** The append-only coin ledger; a user's balance is the sum of its entries. */
export const coinLedger = pgTable(
  "coin_ledger",
  {
    id: serial("id").primaryKey(),
    userId: accountId(),
    delta: integer("delta").notNull(),
    reason: text("reason", { enum: ledgerReasons }).notNull(),
    reference: text("reference"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    /** An author's adjustment (reason "admin" from the admin): who made it, and the reason they gave. */
    actorId: integer("actor_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    note: text("note"),
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

/** A paid chapter unlocked for good by spending coins; one row per reader and chapter. */
export const chapterUnlocks = pgTable(
  "chapter_unlocks",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    coinsSpent: integer("coins_spent").notNull(),
    /** Unlocked by the reader's automatic unlocking on reaching it (ADR 90): counted against their daily cap. */
    auto: boolean("auto").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chapter_unlocks_user_chapter").on(t.userId, t.chapterId),
    // A chapter's unlocks (the admin's analytics of one chapter): the unique index leads with the reader.
    index("chapter_unlocks_chapter_id").on(t.chapterId),
  ],
);

/**
 * A reader's automatic unlocking (ADR 90): off until they turn it on, at most `daily_cap` chapters a day in their
 * time zone. `confirmed_at`: when they first confirmed what it spends (asked once, kept when turned off).
 */
export const autoUnlockSettings = pgTable(
  "auto_unlock_settings",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    dailyCap: integer("daily_cap").notNull().default(5),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("auto_unlock_settings_daily_cap", sql`${t.dailyCap} between 1 and 50`)],
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
