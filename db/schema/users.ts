/** Accounts and signing in: users, sessions, reset tokens, social identities, throttling. */
import { sql } from "drizzle-orm";
import {
  bigint,
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
    /** A published month's Q&A (ADR 82), sent to members only: a perk they pay for, on until turned off. */
    emailQa: boolean("email_qa").notNull().default(true),
    /** The author's announcements (ADR 95): opt-in, like new chapters. */
    emailNews: boolean("email_news").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set while the author has suspended the account: it cannot sign in and has no sessions. */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /**
     * The newest day the reader read on (their `reading_days`, in their zone), moved with each progress write:
     * the admin overview counts readers of a period from it without reading every day's rows.
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
 * The account a money record belongs to (`user_id`): the record outlives the account for the author's
 * accounts, anonymised (null) when the account is deleted.
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
    /**
     * How the sign-in behind the session was verified (ADR 65): "password", a provider's id, "registration"
     * or "reset" alone, or with "+totp", "+recovery-code", "+passkey" or "+email-code" when a second step
     * was asked for.
     */
    verifiedBy: text("verified_by"),
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
  /**
   * Whether the change may touch what a kept session holds (the session, the account row, reading settings,
   * membership, unlocks): false for the reader's other records (progress, comments, orders…), whose event forgets
   * only the pages kept for them alone (ADR 79).
   */
  touchesSession: boolean("touches_session").notNull().default(true),
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

/**
 * A browser an account signed in or registered on (ADR 65): the hash of the random id in its long-lived
 * `device` cookie. An author's sign-in from a browser not listed here asks for a code sent by e-mail, until
 * the author has a second factor of their own.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    deviceHash: text("device_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("known_devices_user_device").on(t.userId, t.deviceHash)],
);

/**
 * An account's second factor (ADR 65): an authenticator app's TOTP secret, or a passkey (a WebAuthn
 * credential). A TOTP factor counts once confirmed with a first code; `lastStep` is the newest 30-second
 * step a code was accepted for, so no code is accepted twice.
 */
export const secondFactors = pgTable(
  "second_factors",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    kind: text("kind", { enum: ["totp", "passkey"] }).notNull(),
    /** What the owner calls it on /settings/security ("Phone", "YubiKey"). */
    label: text("label").notNull(),
    /** The TOTP shared secret, base32; null for a passkey. */
    totpSecret: text("totp_secret"),
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** The passkey's credential id (base64url) and COSE public key (base64url); null for TOTP. */
    credentialId: text("credential_id"),
    publicKey: text("public_key"),
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports"),
    /** Null while a TOTP enrolment waits for its first code (it does not count until then). */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("second_factors_user_id").on(t.userId),
    uniqueIndex("second_factors_credential_id").on(t.credentialId),
    check("second_factors_kind_known", sql`${t.kind} in ('totp', 'passkey')`),
  ],
);

/** One-time recovery codes (ADR 65): only their hashes; a used one keeps its row, with `usedAt`. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("recovery_codes_user_code").on(t.userId, t.codeHash)],
);

/**
 * A sign-in whose password (or provider) was right and that waits for its second step (ADR 65), named by
 * the hash of the token in the browser's `sign-in` cookie. Single use: the row is deleted as the session is
 * made. `codeHash` is the e-mailed code's, with `attempts` wrong tries counted (five at most); a passkey's
 * WebAuthn challenge waits in `webauthnChallenge`.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: ownerId(),
    /** How the first step was made ("password", a provider's id). */
    method: text("method").notNull(),
    remember: boolean("remember").notNull().default(false),
    redirectTo: text("redirect_to").notNull().default("/account"),
    codeHash: text("code_hash"),
    codesSent: integer("codes_sent").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    webauthnChallenge: text("webauthn_challenge"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sign_in_challenges_user_id").on(t.userId)],
);

/** A passkey enrolment in progress: the WebAuthn challenge the owner's browser must sign. Single use. */
export const passkeyEnrolments = pgTable("passkey_enrolments", {
  challenge: text("challenge").primaryKey(),
  userId: ownerId(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
