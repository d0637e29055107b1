/** The Discord role perk (ADR 84): which Discord account a reader linked and the role the site gave it. */
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

export const discordLinks = pgTable(
  "discord_links",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Discord's snowflake id of the linked account: one reader per Discord account. */
    discordUserId: text("discord_user_id").notNull(),
    discordUsername: text("discord_username").notNull(),
    /** Whether the bot added the account to the guild (a failed join: the reader links again). */
    inGuild: boolean("in_guild").notNull().default(false),
    /** The role the site last set on Discord (null: none); the reconcile job compares it with the tier's. */
    appliedRoleId: text("applied_role_id"),
    /** Held by the sync working on this link (claimed with SKIP LOCKED), so two never apply the same change. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** The last failure talking to Discord, kept until a sync succeeds (shown to the author's logs only). */
    lastError: text("last_error"),
    syncedAt: timestamp("synced_at", { withTimezone: true }),
    linkedAt: timestamp("linked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("discord_links_discord_user_id").on(table.discordUserId),
    index("discord_links_synced_at").on(table.syncedAt),
  ],
);
