/** Monthly Q&A (ADR 82): members' questions, the author's answers, the published months and their e-mails. */
import { sql } from "drizzle-orm";
import {
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
import { ownerId } from "./users";

/** A month's key, "YYYY-MM", the calendar month in the site's time zone (SITE_TIME_ZONE). */
const monthKey = (name: string) => text(name).notNull();
const MONTH_PATTERN = sql.raw(`'^[0-9]{4}-(0[1-9]|1[0-2])$'`);

export const qaVisibilities = ["everyone", "members"] as const;

/**
 * A month's Q&A as the author publishes it: its title, intro and who may read the answers. A row exists once
 * the author saves the month; `published_at` is set once, by the publish that queues the month's e-mails.
 */
export const qaMonths = pgTable(
  "qa_months",
  {
    month: monthKey("month").primaryKey(),
    title: text("title").notNull(),
    intro: text("intro").notNull().default(""),
    visibility: text("visibility", { enum: qaVisibilities }).notNull().default("members"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("qa_months_month_format", sql`${t.month} ~ ${MONTH_PATTERN}`),
    check("qa_months_visibility_known", sql`${t.visibility} in ('everyone', 'members')`),
  ],
);

/**
 * One reader's question in the month it was asked (site time zone), with the author's answer once given.
 * The monthly limit is counted on (user_id, month) under the reader's advisory lock (ADR 82).
 */
export const qaQuestions = pgTable(
  "qa_questions",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    month: monthKey("month"),
    body: text("body").notNull(),
    /** The asker's choice: shown by their display name, or as "a member". */
    anonymous: boolean("anonymous").notNull().default(false),
    /** The author's answer, Markdown; null while unanswered. */
    answer: text("answer"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("qa_questions_user_month").on(t.userId, t.month),
    index("qa_questions_month").on(t.month, t.id),
    check("qa_questions_month_format", sql`${t.month} ~ ${MONTH_PATTERN}`),
    check("qa_questions_body_length", sql`char_length(${t.body}) between 10 and 1000`),
  ],
);

export const qaMailStatuses = ["queued", "sent", "failed", "cancelled"] as const;

/**
 * The e-mail telling one member a month's Q&A is out: unique on (month, reader), queued by the publish that
 * claims the month, claimed with a lease and marked sent, so each member is told once.
 */
export const qaMails = pgTable(
  "qa_mails",
  {
    id: serial("id").primaryKey(),
    userId: ownerId(),
    month: monthKey("month"),
    status: text("status", { enum: qaMailStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The last failure's code (never a message, which may hold an address). */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("qa_mails_user_month").on(t.userId, t.month),
    index("qa_mails_due").on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    check("qa_mails_status_known", sql`${t.status} in ('queued', 'sent', 'failed', 'cancelled')`),
    check("qa_mails_attempts_non_negative", sql`${t.attempts} >= 0`),
  ],
);
