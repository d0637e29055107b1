/** The author's uploaded images (ADR 33): one row per distinct file, its web sizes in the media store. */
import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/** One web size of an upload: `key` is its media key (served at `/media/<key>`). */
export type UploadVariant = {
  key: string;
  format: "avif" | "webp" | "png" | "jpeg";
  contentType: string;
  width: number;
  height: number;
  bytes: number;
};

export const uploads = pgTable(
  "uploads",
  {
    id: serial("id").primaryKey(),
    /** SHA-256 of the uploaded bytes (32 hex characters): the same file uploaded twice is one row. */
    hash: text("hash").notNull().unique(),
    /** Where its variants live in the media store: `uploads/<hash>/`. */
    keyPrefix: text("key_prefix").notNull(),
    /** The name it came with, cleaned and capped at 120 characters: a label, never a path. */
    originalFilename: text("original_filename").notNull(),
    /** The original's type by its content (image/png…); the fallback variants keep it where browsers read it. */
    contentType: text("content_type").notNull(),
    /** The upright original's size: pages reserve the space before the image arrives. */
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    variants: jsonb("variants").$type<UploadVariant[]>().notNull(),
    /** The author who uploaded it; kept (null) if that account goes. */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("uploads_size_positive", sql`${t.width} > 0 and ${t.height} > 0 and ${t.bytes} > 0`),
    check("uploads_hash_hex", sql`${t.hash} ~ '^[0-9a-f]{32}$'`),
  ],
);
