/** A signed-in reader's place in each chapter and reading settings. */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { chapters } from "./content";
import { ownerId, users } from "./users";

/** A signed-in reader's place in a chapter (visitors keep theirs in browser storage). */
export const readingProgress = pgTable(
  "reading_progress",
  {
    userId: ownerId(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    /** 0 to 1: how far down the chapter the reader has scrolled. */
    scrollPosition: real("scroll_position").notNull().default(0),
    /** The paragraph at the top of the screen, so the place survives a change of font size. */
    paragraph: integer("paragraph").notNull().default(0),
    completionPercentage: integer("completion_percentage").notNull().default(0),
    /** Reading time counted by the server (what counts as reading: features/reader/reading-rule.ts, ADR 58). */
    readingTimeSeconds: integer("reading_time_seconds").notNull().default(0),
    /** Completed as the reading rule counts it: scrolled to the end with the reading time its length needs. */
    completed: boolean("completed").notNull().default(false),
    bookmarks: integer("bookmarks").array().notNull().default(sql`'{}'::integer[]`),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the chapter was first completed (server time), and the reader's wall-clock time then. */
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Local date and time of completion in the reader's time zone then, fixed when recorded. */
    completedLocal: timestamp("completed_local", { mode: "string" }),
    /** The server's clock up to which reading time was counted (null: nothing counted yet). */
    countedAt: timestamp("counted_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.chapterId] }),
    // A chapter's readers (the admin's analytics of one chapter, the funnel's first chapter): the primary key
    // leads with the reader.
    index("reading_progress_chapter_id").on(t.chapterId),
    check("reading_progress_scroll_range", sql`${t.scrollPosition} >= 0 and ${t.scrollPosition} <= 1`),
    check("reading_progress_completion_range", sql`${t.completionPercentage} between 0 and 100`),
  ],
);

/**
 * Visitors' reading of a chapter by day (UTC), counted under the same reading rule as readers' (ADR 58):
 * how many chapter views counted as read and as completed. Counters only: nothing of the visitor is kept.
 */
export const chapterVisitorDays = pgTable(
  "chapter_visitor_days",
  {
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    started: integer("started").notNull().default(0),
    completed: integer("completed").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.day] }),
    check("chapter_visitor_days_counts", sql`${t.started} >= 0 and ${t.completed} >= 0`),
  ],
);

/**
 * The key that signs a visitor's chapter view (features/reader/visitor-views.server.ts): one row, made by
 * the first server that needs it, shared by every app instance.
 */
export const visitorViewKey = pgTable("visitor_view_key", {
  id: integer("id").primaryKey().default(1),
  secret: text("secret").notNull(),
});

/** The choices as app/features/reading-settings/settings.ts lists them (tests save each one). */
const fontFamilies = ["serif", "sans-serif", "gothic", "dyslexic"] as const;
const themes = ["auto", "sepia", "contrast"] as const;
const textWidths = ["narrow", "medium", "wide"] as const;
const paragraphSpacings = ["small", "medium", "large"] as const;
const textAligns = ["start", "justify"] as const;
const authorNoteViews = ["folded", "full"] as const;
const sideBySides = ["off", "on"] as const;

/** A signed-in reader's reading settings, rendered by the server so the first paint is right. */
export const readingSettings = pgTable(
  "reading_settings",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fontSize: integer("font_size").notNull().default(16),
    fontFamily: text("font_family", { enum: fontFamilies }).notNull().default("serif"),
    lineHeight: real("line_height").notNull().default(1.75),
    theme: text("theme", { enum: themes }).notNull().default("auto"),
    textWidth: text("text_width", { enum: textWidths }).notNull().default("medium"),
    paragraphSpacing: text("paragraph_spacing", { enum: paragraphSpacings }).notNull().default("medium"),
    textAlign: text("text_align", { enum: textAligns }).notNull().default("start"),
    /** The author's notes around a chapter: folded (a closed summary) or in full (ADR 95). */
    authorNotes: text("author_notes", { enum: authorNoteViews }).notNull().default("folded"),
    sideBySide: text("side_by_side", { enum: sideBySides }).notNull().default("off"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("reading_settings_font_size", sql`${t.fontSize} in (14, 16, 18, 20)`),
    check("reading_settings_line_height", sql`${t.lineHeight} in (1.5, 1.75, 2)`),
    check(
      "reading_settings_font_family",
      sql`${t.fontFamily} in ('serif', 'sans-serif', 'gothic', 'dyslexic')`,
    ),
    check("reading_settings_theme", sql`${t.theme} in ('auto', 'sepia', 'contrast')`),
    check("reading_settings_text_width", sql`${t.textWidth} in ('narrow', 'medium', 'wide')`),
    check("reading_settings_paragraph_spacing", sql`${t.paragraphSpacing} in ('small', 'medium', 'large')`),
    check("reading_settings_text_align", sql`${t.textAlign} in ('start', 'justify')`),
    check("reading_settings_author_notes", sql`${t.authorNotes} in ('folded', 'full')`),
    check("reading_settings_side_by_side", sql`${t.sideBySide} in ('off', 'on')`),
  ],
);

/**
 * Reading time per local calendar day (the reader's time zone when the time was recorded, so a later change
 * of zone never moves history). Written with each progress write; streaks are computed from these rows.
 */
export const readingDays = pgTable(
  "reading_days",
  {
    userId: ownerId(),
    day: date("day", { mode: "string" }).notNull(),
    seconds: integer("seconds").notNull().default(0),
    /** The interface languages the reader read in that day. */
    languages: text("languages").array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day] }),
    index("reading_days_day").on(t.day),
    check("reading_days_seconds_range", sql`${t.seconds} between 0 and 86400`),
  ],
);

/**
 * Readers and reading time of a past day, all readers together, kept once the day can no longer change
 * (ADR 43): the admin overview's chart reads 30 rows instead of every reader's day.
 */
export const readingDayTotals = pgTable("reading_day_totals", {
  day: date("day", { mode: "string" }).primaryKey(),
  readers: integer("readers").notNull(),
  seconds: bigint("seconds", { mode: "number" }).notNull(),
});

export type LocalizedText = Record<"en" | "es" | "fr" | "ja", string>;

/** The achievements catalogue (content the author edits: content/achievements.md). */
export const achievements = pgTable("achievements", {
  key: text("key").primaryKey(),
  icon: text("icon").notNull(),
  category: text("category").notNull(),
  /** What earns it (features/achievements/rules.ts), with its threshold where it has one. */
  rule: text("rule").notNull(),
  threshold: integer("threshold"),
  hidden: boolean("hidden").notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  description: jsonb("description").$type<LocalizedText>().notNull(),
});

/** An achievement a reader earned, once. */
export const userAchievements = pgTable(
  "user_achievements",
  {
    userId: ownerId(),
    key: text("key")
      .notNull()
      .references(() => achievements.key, { onDelete: "cascade" }),
    earnedAt: timestamp("earned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * A reader's private feed address (ADR 44): the hash of its token only, one a reader; a new one replaces
 * the old, which then answers 404.
 */
export const feedTokens = pgTable("feed_tokens", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
