/** Beta reading (ADR 83): what First Human supporters write about a draft offered to them. */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { chapters } from "./content";
import { ownerId } from "./users";

/**
 * One note on a beta chapter, seen by the author alone: on the whole chapter (`paragraph` null) or on one of
 * its numbered blocks (0-based, as the text's `data-p`), with that block's words as they read when it was
 * written (`quote`), since the draft may change under it. Deleted with its writer's account and its chapter.
 */
export const betaFeedback = pgTable(
  "beta_feedback",
  {
    id: serial("id").primaryKey(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    userId: ownerId(),
    paragraph: integer("paragraph"),
    quote: text("quote").notNull().default(""),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("beta_feedback_chapter_created").on(t.chapterId, t.createdAt),
    index("beta_feedback_user_chapter_created").on(t.userId, t.chapterId, t.createdAt),
    check("beta_feedback_paragraph_range", sql`${t.paragraph} is null or ${t.paragraph} >= 0`),
    check("beta_feedback_body_size", sql`char_length(${t.body}) between 1 and 4000`),
  ],
);
