/** The author's admin: the record of every change made through it. */
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { chapters } from "./content";
import { translationLanguages } from "./translations";
import { users } from "./users";

/**
 * One row per admin change: who (null once their account is gone, or for the command line), what (an action
 * name and the thing changed), when, and the thing before and after. Written in the change's transaction.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * What did it: "admin" (a page of the admin), "cli" (`npm run admin`) or "account" (the account's owner
     * on their own settings or sign-in: a second factor enrolled, removed, used or failed, ADR 65).
     */
    via: text("via", { enum: ["admin", "cli", "account"] }).notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_log_created_at").on(t.createdAt),
    index("audit_log_subject").on(t.subjectType, t.subjectId),
    check("audit_log_via_known", sql`${t.via} in ('admin', 'cli', 'account')`),
  ],
);

/**
 * Every saved version of a chapter, written with the save (the first edit also keeps the version it
 * replaced): the revision history an author restores from or compares. Not content the site shows, so no
 * write here moves the content revision. A translation's versions are kept here too, by language (ADR 93).
 */
/** The author's notes a revision keeps (ADR 100); null: none. */
export type RevisionNotes = { before: string | null; after: string | null };

export const chapterRevisions = pgTable(
  "chapter_revisions",
  {
    id: serial("id").primaryKey(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    /** `en`: the original's text; otherwise a translation's, numbered by its own versions (ADR 93). */
    language: text("language", { enum: ["en", ...translationLanguages] })
      .notNull()
      .default("en"),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    /**
     * The author's notes of this version (ADR 100): `{ before, after }`, each Markdown or null (none). Null: a
     * version saved before revisions kept notes, whose notes are not known (restoring it leaves them as they are).
     */
    notes: jsonb("notes").$type<RevisionNotes>(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chapter_revisions_chapter_language_version").on(t.chapterId, t.language, t.version),
    check("chapter_revisions_language_known", sql`${t.language} in ('en', 'es', 'fr', 'ja')`),
  ],
);

/**
 * An author's unsaved text, kept every few seconds while they write and when they leave the page: one per
 * author and chapter (`key`: "chapter:<id>" or "new"), so two authors never overwrite each other's.
 */
export const editorDrafts = pgTable(
  "editor_drafts",
  {
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The chapter version the text was written from. */
    baseVersion: integer("base_version"),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.authorId, t.key] })],
);
