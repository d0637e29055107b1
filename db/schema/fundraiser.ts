/** The fundraiser: support tiers, goals and supporters (content the author edits). */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

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

export const goalPeriods = ["campaign", "monthly"] as const;
export type GoalPeriod = (typeof goalPeriods)[number];

/**
 * A goal of the author's: a campaign counts money received from `startsAt` to `endsAt` (open-ended when
 * null); a monthly goal counts the current calendar month in the site's time zone, from `startsAt` on.
 */
export const fundraiserGoals = pgTable(
  "fundraiser_goals",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull().unique(),
    descriptionMd: text("description_md").notNull().default(""),
    period: text("period", { enum: goalPeriods }).notNull().default("campaign"),
    targetCents: integer("target_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }),
  },
  (t) => [
    check("fundraiser_goals_target_positive", sql`${t.targetCents} > 0`),
    check("fundraiser_goals_period_known", sql`${t.period} in ('campaign', 'monthly')`),
    check("fundraiser_goals_ends_after_start", sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
  ],
);

/** The imported history's tier labels (content/fundraiser.md). */
export const supporterTiers = ["Founder", "Sustainer", "Supporter"] as const;
/** What a wall entry is labelled with: an imported label, a support tier, or a one-off gift. */
export const wallTiers = [...supporterTiers, ...tierKeys, "gift"] as const;
export type WallTier = (typeof wallTiers)[number];

/** How a supporter appears on the wall: their username, a display name, "Anonymous", or not listed. */
export const supporterDisplays = ["username", "name", "anonymous", "hidden"] as const;
export type SupporterDisplay = (typeof supporterDisplays)[number];

/**
 * The supporters wall. An imported row (no `userId`) is history from content/: its `amountCents` is money
 * received and counts toward goals. A reader's row (one per reader) holds only how they appear; their
 * money is in `payments`.
 */
export const supporters = pgTable(
  "supporters",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    display: text("display", { enum: supporterDisplays }).notNull().default("name"),
    /** The display name (imported rows: the name); shown only when `display` is "name". */
    name: text("name").notNull(),
    tier: text("tier", { enum: wallTiers }).notNull(),
    emoji: text("emoji").notNull().default(""),
    /** A public message, plain text. */
    message: text("message").notNull().default(""),
    amountCents: integer("amount_cents").notNull().default(0),
    currency: text("currency").notNull().default("USD"),
    /** When they last joined or gave: the wall lists newest first. */
    supportedAt: timestamp("supported_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("supporters_name_supported_at").on(t.name, t.supportedAt).where(sql`${t.userId} is null`),
    index("supporters_supported_at").on(t.supportedAt),
    check(
      "supporters_amount_imported_only",
      sql`(${t.userId} is null and ${t.amountCents} > 0) or (${t.userId} is not null and ${t.amountCents} = 0)`,
    ),
    check("supporters_message_length", sql`char_length(${t.message}) <= 140`),
    check("supporters_display_known", sql`${t.display} in ('username', 'name', 'anonymous', 'hidden')`),
  ],
);
