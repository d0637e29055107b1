/**
 * Translations of the author's content (ADR 86): English is the original, kept in its own tables; each other
 * language's version lives here, a chapter's in `chapter_translations` (its text is rendered and counted like
 * the original's), everything else in `translations`, keyed by kind and key. Each records the digest of the
 * original's translatable text it was made from (`source_digest`): when the original's digest differs now, the
 * translation is stale (features/translations/status.server.ts).
 */
import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { chapters } from "./content";

/** The languages a translation may be in: every language of the interface but the original's. */
export const translationLanguages = ["es", "fr", "ja"] as const;
export type TranslationLanguage = (typeof translationLanguages)[number];

/** The kinds of content other than chapters, each keyed as its file is named (features/translations/kinds.ts). */
export const translationKinds = [
  "site",
  "legal",
  "volume",
  "wiki",
  "gallery",
  "product",
  "tier",
  "coinPack",
  "goal",
] as const;
export type TranslationKind = (typeof translationKinds)[number];

export const chapterTranslations = pgTable(
  "chapter_translations",
  {
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    language: text("language", { enum: translationLanguages }).notNull(),
    title: text("title").notNull(),
    bodyMd: text("body_md").notNull(),
    /** The text rendered for readers, as the original's (ADR 54); null: rendered when read. */
    bodyHtml: text("body_html"),
    bodyHtmlRenderer: integer("body_html_renderer"),
    /** Words, each CJK character counted as one (app/lib/words.ts). */
    wordCount: integer("word_count").notNull(),
    /** The CJK characters among them: read at their own pace (docs/product-rules.md "Reading time"). */
    cjkCount: integer("cjk_count").notNull().default(0),
    /**
     * The translation's own author's notes before and after its text (Markdown, ADR 100), as the original's
     * (`chapters.note_before`, ADR 95). Null: none; the reader is then shown the original's note, if any.
     */
    noteBefore: text("note_before"),
    noteAfter: text("note_after"),
    /** The artworks' captions, in the original's order. */
    captions: jsonb("captions").$type<string[]>().notNull().default([]),
    /** For each block of the translation, the original's block it renders (null: aligned one to one). */
    paragraphMap: jsonb("paragraph_map").$type<number[]>(),
    sourceDigest: text("source_digest").notNull(),
    /** Raised by every save and import that changes it: the admin's editor saves from the version it opened. */
    version: integer("version").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.chapterId, t.language] }),
    check("chapter_translations_language_known", sql`${t.language} in ('es', 'fr', 'ja')`),
  ],
);

export const translations = pgTable(
  "translations",
  {
    kind: text("kind", { enum: translationKinds }).notNull(),
    /** The original's key: a slug, a number, `section/slug` for the wiki, a goal's title, `site` for the site. */
    key: text("key").notNull(),
    language: text("language", { enum: translationLanguages }).notNull(),
    /** The translated fields, named as the original's front matter (`title`, `perks`, ...). */
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    bodyMd: text("body_md").notNull().default(""),
    sourceDigest: text("source_digest").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.key, t.language] }),
    check("translations_language_known", sql`${t.language} in ('es', 'fr', 'ja')`),
  ],
);
