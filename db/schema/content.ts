/** The published content: what the importer writes from `content/` (site, chapters, wiki, gallery). */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** The one-row table of site-wide settings the author edits (title, author, about, contact). */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer("id").primaryKey().default(1),
    title: text("title").notNull(),
    tagline: text("tagline").notNull(),
    /** The story summary shown at the top of the table of contents. */
    synopsis: text("synopsis").notNull().default(""),
    author: text("author").notNull(),
    location: text("location").notNull(),
    role: text("role").notNull(),
    startedYear: integer("started_year").notNull(),
    email: text("email").notNull(),
    socialLabel: text("social_label").notNull(),
    socialUrl: text("social_url").notNull(),
    communityLabel: text("community_label").notNull(),
    communityUrl: text("community_url").notNull(),
    aboutMd: text("about_md").notNull(),
  },
  (t) => [check("site_settings_single_row", sql`${t.id} = 1`)],
);

export const legalPages = pgTable("legal_pages", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  bodyMd: text("body_md").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

export const volumes = pgTable("volumes", {
  id: serial("id").primaryKey(),
  number: integer("number").notNull().unique(),
  title: text("title").notNull(),
  summaryMd: text("summary_md").notNull().default(""),
  artworkUrl: text("artwork_url"),
});

export type Artwork = { url: string; position: "before" | "after"; caption: string };

export const chapters = pgTable(
  "chapters",
  {
    id: serial("id").primaryKey(),
    number: integer("number").notNull().unique(),
    volumeId: integer("volume_id")
      .notNull()
      .references(() => volumes.id),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    /**
     * The text rendered for readers (sanitised HTML with numbered blocks, ADR 54), written with the text by
     * the admin and the import so a reader's request never parses Markdown; by `bodyHtmlRenderer`, the
     * renderer's version that made it. Null (a trigger clears it when the text changes without it) or of
     * another renderer: rendered from the text when read.
     */
    bodyHtml: text("body_html"),
    bodyHtmlRenderer: integer("body_html_renderer"),
    /** Computed from the text at import, never typed by hand. */
    wordCount: integer("word_count").notNull(),
    releaseAt: timestamp("release_at", { withTimezone: true }).notNull(),
    coinsRequired: integer("coins_required").notNull().default(0),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    artwork: jsonb("artwork").$type<Artwork[]>().notNull().default([]),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("published"),
    /**
     * A draft the author offers to First Human supporters before its release (ADR 83, features/beta): read
     * at /beta only while it is a draft. Published, it is a chapter like any other and the mark means nothing.
     */
    betaReaders: boolean("beta_readers").notNull().default(false),
    /**
     * The author's notes before and after the text (ADR 95): Markdown, rendered like the text, shown to readers
     * who may read the chapter, folded or in full by their reading setting. Null: no note.
     */
    noteBefore: text("note_before"),
    noteAfter: text("note_after"),
    /**
     * Moves on every change (an admin save, an import that changes the row): a save names the version it
     * was made from, and one made from an older version is a conflict, never an overwrite.
     */
    version: integer("version").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("chapters_coins_required_non_negative", sql`${t.coinsRequired} >= 0`),
    check("chapters_status_known", sql`${t.status} in ('draft', 'published')`),
  ],
);

/**
 * Where a number a chapter held before it was moved now leads (ADR 39): /chapter/N redirects to the chapter
 * when no chapter holds N any more, so an old link or bookmark still finds it.
 */
export const chapterRedirects = pgTable("chapter_redirects", {
  number: integer("number").primaryKey(),
  chapterId: integer("chapter_id")
    .notNull()
    .references(() => chapters.id, { onDelete: "cascade" }),
});

export const wikiSections = ["characters", "world", "items"] as const;
export type WikiSection = (typeof wikiSections)[number];

export const wikiPages = pgTable(
  "wiki_pages",
  {
    id: serial("id").primaryKey(),
    section: text("section", { enum: wikiSections }).notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    bodyMd: text("body_md").notNull(),
    imageUrl: text("image_url"),
    sortOrder: integer("sort_order").notNull().default(0),
    /**
     * The chapter whose reading reveals what this page tells (null: none). Stored now, set by the author;
     * the spoiler-safe wiki will hide a page from readers who have not reached it.
     */
    revealsChapter: integer("reveals_chapter"),
  },
  (t) => [
    uniqueIndex("wiki_pages_section_slug").on(t.section, t.slug),
    check("wiki_pages_section_known", sql`${t.section} in ('characters', 'world', 'items')`),
    check("wiki_pages_reveals_positive", sql`${t.revealsChapter} is null or ${t.revealsChapter} > 0`),
  ],
);

export const galleryItems = pgTable("gallery_items", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  imageUrl: text("image_url").notNull(),
  descriptionMd: text("description_md").notNull().default(""),
  sortOrder: integer("sort_order").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/**
 * A counter that every write to the published content (chapters, volumes, wiki, gallery, products, tiers,
 * fundraiser, site settings, legal pages) moves, through statement triggers in the migrations. Each app
 * instance polls it, so cached pages are dropped everywhere within a second of any change, whoever made it.
 */
export const contentRevision = pgTable(
  "content_revision",
  {
    id: integer("id").primaryKey().default(1),
    revision: integer("revision").notNull().default(0),
    /**
     * Moved by every write to comments and hearts (migration 0022): the pages that show comments or their
     * counts (a chapter's comments, the table of contents) are kept per both counters, every other page per
     * `revision` alone, so a comment never retires the chapter pages (ADR 47).
     */
    comments: integer("comments").notNull().default(0),
  },
  (t) => [check("content_revision_single_row", sql`${t.id} = 1`)],
);

/**
 * What moved the content revision, one row per move made by a trigger (migration 0027, ADR 54): the number
 * of the chapter whose text alone changed (its body, word count, tags, version or edit time), or null for
 * any other change. An instance reads the rows past the revision it knows, so an edit of one chapter's text
 * retires that chapter's kept pages and the pages listing chapters, not the other chapters'. The last 1,000
 * moves are kept; a move without its row (a gap) counts as a change to everything.
 */
export const contentChanges = pgTable("content_changes", {
  revision: integer("revision").primaryKey(),
  chapterNumber: integer("chapter_number"),
  /** The language whose translation alone changed (an update of a translation, ADR 86), else null. */
  language: text("language"),
});

/**
 * Which copy of the data the database holds: a random value that every restore writes afresh
 * (`moveDatabaseEpoch`, db/epoch.server.ts), read with the row's table identity, which a restore that
 * recreates the tables (pg_restore --clean) changes by itself. A restore puts counters and ids back
 * (`content_revision`, `session_events`); each instance following them compares the epoch at every read and,
 * when it moved, forgets everything it kept and follows on from where the restored data stands (ADR 61).
 * Not in a backup: it describes the database, not the site.
 */
export const databaseEpoch = pgTable(
  "database_epoch",
  {
    id: integer("id").primaryKey().default(1),
    epoch: uuid("epoch").notNull().defaultRandom(),
  },
  (t) => [check("database_epoch_single_row", sql`${t.id} = 1`)],
);
