/** The author's announcements (ADR 95): short news on the home page, e-mailed once to readers who asked. */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { releaseMailStatuses } from "./notifications";
import { ownerId, users } from "./users";

/**
 * A published announcement. `publishKey` is the publishing form's own key: a form sent twice (two tabs, a
 * double click, a retry) publishes once, so its readers are e-mailed once.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    publishKey: text("publish_key").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("announcements_publish_key").on(t.publishKey),
    index("announcements_published_at").on(t.publishedAt),
    check("announcements_title_length", sql`char_length(${t.title}) between 1 and 120`),
    check("announcements_body_length", sql`char_length(${t.bodyMd}) between 1 and 2000`),
  ],
);

/** A mail queue's columns (features/mail/queue.server.ts `MailQueue`): status, attempts, lease, outcome. */
const mailQueueColumns = () => ({
  status: text("status", { enum: releaseMailStatuses }).notNull().default("queued"),
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  /** While set in the future, one worker holds the row (it is sending); past it, anyone may claim it again. */
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  /** The last failure's code (never a message, which may hold an address). */
  lastError: text("last_error"),
});

/**
 * One announcement's e-mail to one reader: unique on (announcement, reader), so however often it is published
 * or however many workers send, a reader is told once. Claimed with a lease, retried, kept as failed past the
 * last attempt (features/mail/queue.server.ts), like release e-mails.
 */
export const announcementMails = pgTable(
  "announcement_mails",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    ...mailQueueColumns(),
    /** SHA-256 of the unsubscribe token written into this e-mail (the token itself is never stored). */
    unsubscribeHash: text("unsubscribe_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("announcement_mails_user_announcement").on(t.userId, t.announcementId),
    uniqueIndex("announcement_mails_unsubscribe_hash").on(t.unsubscribeHash),
    index("announcement_mails_due").on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index("announcement_mails_announcement_id").on(t.announcementId),
    check("announcement_mails_status_known", sql`${t.status} in ('queued', 'sent', 'failed', 'cancelled')`),
    check("announcement_mails_attempts_non_negative", sql`${t.attempts} >= 0`),
  ],
);
