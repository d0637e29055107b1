/** The fundraiser: support tiers, goals and supporters (content the author edits). */
import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

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
