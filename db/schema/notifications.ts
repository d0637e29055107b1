/** Release e-mails (ADR 45): which chapter openings were announced, and one job row per reader and chapter. */
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { chapters } from "./content";
import { translationLanguages } from "./translations";
import { ownerId } from "./users";

/**
 * One row: the release time at which release e-mails began on this database. A chapter that opened to an
 * audience by then is never announced, so the first start of the feature (on a site with years of chapters)
 * mails nobody about the past.
 */
export const releaseMailState = pgTable(
  "release_mail_state",
  {
    id: integer("id").primaryKey().default(1),
    baselineAt: timestamp("baseline_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("release_mail_state_single_row", sql`${t.id} = 1`)],
);

/** Audiences a chapter opens to: everyone at its release, or a member tier reading ahead before it. */
export const announcementAudiences = ["public", "observer", "analyst", "first_human"] as const;

/**
 * A chapter's opening to an audience, announced once: the instance that inserts the row queues the e-mails
 * in the same transaction; any other finds the row and does nothing.
 */
export const chapterAnnouncements = pgTable(
  "chapter_announcements",
  {
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    audience: text("audience", { enum: announcementAudiences }).notNull(),
    announcedAt: timestamp("announced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.audience] }),
    check(
      "chapter_announcements_audience_known",
      sql`${t.audience} in ('public', 'observer', 'analyst', 'first_human')`,
    ),
  ],
);

export const releaseMailStatuses = ["queued", "sent", "failed", "cancelled"] as const;

/**
 * A chapter's translation announced once (ADR 94): the instance that inserts the row queues the e-mails to the
 * readers of that language. A chapter's public release marks the translations it has then (its release e-mail
 * is already in their language), and the migration marked those that existed before.
 */
export const translationAnnouncements = pgTable(
  "translation_announcements",
  {
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    language: text("language", { enum: translationLanguages }).notNull(),
    announcedAt: timestamp("announced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.language] }),
    check("translation_announcements_language_known", sql`${t.language} in ('es', 'fr', 'ja')`),
  ],
);

/**
 * One e-mail about one chapter to one reader: unique on (reader, chapter, language), so however many
 * instances announce, and whether the chapter opened early to the reader's tier or at its release, a reader
 * is told once; and once more, in their language, when its translation comes out later. Claimed with a lease (`locked_until`); a failure waits `next_attempt_at`; past the last attempt the
 * row stays `failed` with its error, never deleted.
 */
export const releaseMails = pgTable(
  "release_mails",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    /**
     * "release": the chapter is out; "early": it opened to the reader's tier before its release;
     * "translation": it is out in `language`, after its release.
     */
    kind: text("kind", { enum: ["release", "early", "translation"] }).notNull(),
    /** A translation e-mail's language; empty for the others (in the reader's language when it is sent). */
    language: text("language").notNull().default(""),
    status: text("status", { enum: releaseMailStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While set in the future, one worker holds the row (it is sending); past it, anyone may claim it again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The last failure's code (never a message, which may hold an address). */
    lastError: text("last_error"),
    /** SHA-256 of the unsubscribe token written into this e-mail (the token itself is never stored). */
    unsubscribeHash: text("unsubscribe_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("release_mails_user_chapter_language").on(t.userId, t.chapterId, t.language),
    uniqueIndex("release_mails_unsubscribe_hash").on(t.unsubscribeHash),
    index("release_mails_due").on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index("release_mails_chapter_id").on(t.chapterId),
    check("release_mails_kind_known", sql`${t.kind} in ('release', 'early', 'translation')`),
    check(
      "release_mails_language_of_kind",
      sql`(${t.kind} = 'translation') = (${t.language} in ('es', 'fr', 'ja')) and ${t.language} in ('', 'es', 'fr', 'ja')`,
    ),
    check("release_mails_status_known", sql`${t.status} in ('queued', 'sent', 'failed', 'cancelled')`),
    check("release_mails_attempts_non_negative", sql`${t.attempts} >= 0`),
  ],
);
