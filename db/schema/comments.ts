/** Chapter comments (ADR 47): readers' comments and replies, hearts, reports and bans. */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { chapters } from "./content";
import { ownerId, users } from "./users";

export const commentStatuses = ["visible", "hidden", "deleted"] as const;
export type CommentStatus = (typeof commentStatuses)[number];

/**
 * One comment on a chapter, or a reply to one (one level: a reply's parent is never itself a reply; the
 * commands keep that). Deleted with its writer's account and with its chapter; replies go with their
 * comment. `status`: `visible`; `hidden` by the author (kept, shown to no reader, restorable); `deleted` by
 * its writer while it has replies (its text is erased, the place kept so the replies keep their thread).
 */
export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    userId: ownerId(),
    parentId: integer("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    /** What the reader wrote (Markdown, 1 to 5,000 characters), and its sanitised HTML. */
    bodyMd: text("body_md").notNull(),
    bodyHtml: text("body_html").notNull(),
    /** The whole comment is a spoiler: shown folded until the reader opens it. */
    spoiler: boolean("spoiler").notNull().default(false),
    status: text("status", { enum: commentStatuses }).notNull().default("visible"),
    /** Kept equal to the rows of `comment_hearts`, in the same transaction. */
    hearts: integer("hearts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (t) => [
    // A chapter's page of comments, newest or oldest first, and its count.
    index("comments_chapter_created").on(t.chapterId, t.createdAt),
    index("comments_parent").on(t.parentId),
    // The five-a-minute rule and a reader's own comments (export, the admin).
    index("comments_user_created").on(t.userId, t.createdAt),
    check("comments_status_known", sql`${t.status} in ('visible', 'hidden', 'deleted')`),
    check("comments_body_length", sql`char_length(${t.bodyMd}) <= 5000`),
    check("comments_hearts_non_negative", sql`${t.hearts} >= 0`),
  ],
);

/** One heart per reader per comment. */
export const commentHearts = pgTable(
  "comment_hearts",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: ownerId(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] }), index("comment_hearts_user").on(t.userId)],
);

/** A reader's report of a comment (one per reader per comment), until the author deals with it. */
export const commentReports = pgTable(
  "comment_reports",
  {
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: ownerId(),
    /** Why, in the reader's words (up to 500 characters, may be empty). */
    reason: text("reason").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when the author hid, restored or kept the comment: the report leaves the queue. */
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index("comment_reports_open").on(t.createdAt).where(sql`${t.resolvedAt} is null`),
    check("comment_reports_reason_length", sql`char_length(${t.reason}) <= 500`),
  ],
);

/** Readers the author barred from commenting (they still read); the row goes when the ban is lifted. */
export const commentBans = pgTable("comment_bans", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  reason: text("reason").notNull().default(""),
  bannedBy: integer("banned_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
