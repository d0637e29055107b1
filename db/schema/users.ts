/** Accounts and signing in: users, sessions, reset tokens, social identities, throttling. */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

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
    /** IANA name (Intl-validated), from the browser's `tz` cookie with each progress write; "UTC" until known. */
    timeZone: text("time_zone").notNull().default("UTC"),
    /** Set when the reader chose the zone on /settings: the browser's zone then no longer replaces it. */
    timeZoneFixed: boolean("time_zone_fixed").notNull().default(false),
    /** E-mail choices (/settings): new chapters are opt-in; account notices are on until turned off. */
    emailNewChapters: boolean("email_new_chapters").notNull().default(false),
    emailAccountNotices: boolean("email_account_notices").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while the author has suspended the account: it cannot sign in and has no sessions. */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /**
     * The newest day the reader read on (their `reading_days`, in their zone), moved with each progress write:
     * the admin overview counts readers of a period from it without reading every day's rows (issue 20).
     */
    lastReadOn: date("last_read_on", { mode: "string" }),
    /**
     * When the reader showed the e-mail address is theirs (the link of the confirmation e-mail, or a social
     * provider's word); null until then, and again after the address changes (ADR 56).
     */
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    /** SHA-256 of the token in the newest confirmation e-mail; null once confirmed. A new e-mail voids it. */
    emailConfirmationHash: text("email_confirmation_hash"),
  },
  (t) => [
    index("users_last_read_on").on(t.lastReadOn),
    index("users_created_at").on(t.createdAt),
    uniqueIndex("users_username_lower").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower").on(sql`lower(${t.email})`),
    uniqueIndex("users_email_confirmation_hash").on(t.emailConfirmationHash),
    check("users_coin_balance_non_negative", sql`${t.coinBalance} >= 0`),
    check("users_role_known", sql`${t.role} in ('reader', 'author')`),
  ],
);

/** The account a row belongs to (`user_id`), deleted with it. */
export const ownerId = () =>
  integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/**
 * The account a money record belongs to (`user_id`): the record outlives the account for the accounts
 * (issue 20), anonymised (null) when the account is deleted.
 */
export const accountId = () => integer("user_id").references(() => users.id, { onDelete: "set null" });

/** Server-side sessions: only the hash of the cookie's token is stored. Revoking deletes the row. */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: ownerId(),
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

/**
 * What ended or changed a signed-in reader's session, for every app instance's session cache (ADR 49):
 * written by triggers (migration 0024) when a session row is deleted (sign-out, sign out everywhere, a
 * password reset, suspension, expiry, a deleted account) and when an account's role, suspension or reading
 * settings change. Each instance reads the rows after the last it saw every 250 ms and forgets those
 * readers' cached sessions; rows older than ten minutes are deleted. No foreign key: the account may be gone.
 */
export const sessionEvents = pgTable("session_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: integer("user_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
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
    userId: ownerId(),
    displayName: text("display_name"),
    /** The provider's handle where it has one (Discord's `username`), shown on the dashboard. */
    username: text("username"),
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
