CREATE TABLE "auto_unlock_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"daily_cap" integer DEFAULT 5 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_unlock_settings_daily_cap" CHECK ("auto_unlock_settings"."daily_cap" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "chapter_translations" (
	"chapter_id" integer NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"body_md" text NOT NULL,
	"body_html" text,
	"body_html_renderer" integer,
	"word_count" integer NOT NULL,
	"cjk_count" integer DEFAULT 0 NOT NULL,
	"captions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"paragraph_map" jsonb,
	"source_digest" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapter_translations_chapter_id_language_pk" PRIMARY KEY("chapter_id","language"),
	CONSTRAINT "chapter_translations_language_known" CHECK ("chapter_translations"."language" in ('es', 'fr', 'ja'))
);
--> statement-breakpoint
CREATE TABLE "translations" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"language" text NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body_md" text DEFAULT '' NOT NULL,
	"source_digest" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translations_kind_key_language_pk" PRIMARY KEY("kind","key","language"),
	CONSTRAINT "translations_language_known" CHECK ("translations"."language" in ('es', 'fr', 'ja'))
);
--> statement-breakpoint
ALTER TABLE "chapter_unlocks" ADD COLUMN "auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "content_changes" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "theme" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "text_width" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "paragraph_spacing" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "text_align" text DEFAULT 'start' NOT NULL;--> statement-breakpoint
ALTER TABLE "auto_unlock_settings" ADD CONSTRAINT "auto_unlock_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_translations" ADD CONSTRAINT "chapter_translations_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_font_family" CHECK ("reading_settings"."font_family" in ('serif', 'sans-serif', 'gothic', 'dyslexic'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_theme" CHECK ("reading_settings"."theme" in ('auto', 'sepia', 'contrast'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_text_width" CHECK ("reading_settings"."text_width" in ('narrow', 'medium', 'wide'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_paragraph_spacing" CHECK ("reading_settings"."paragraph_spacing" in ('small', 'medium', 'large'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_text_align" CHECK ("reading_settings"."text_align" in ('start', 'justify'));
--> statement-breakpoint
-- hand-written (automatic unlocking: ADR 90)
-- The setting shows on /settings, a page kept for its reader: an event for their own records (ADR 53, 79).
CREATE TRIGGER "auto_unlock_settings_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "auto_unlock_settings" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
--> statement-breakpoint
-- hand-written
-- Translations (ADR 86): an update of one names its language, so an instance retires only that language's
-- kept pages; an insert or delete moves everything (every language's page lists the versions there are).
CREATE FUNCTION "note_translation_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved integer;
BEGIN
	UPDATE "content_revision" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO moved;
	IF moved IS NOT NULL THEN
		INSERT INTO "content_changes" ("revision", "chapter_number", "language") VALUES (
			moved,
			NULL,
			CASE WHEN OLD."language" = NEW."language" THEN NEW."language" END
		) ON CONFLICT ("revision") DO UPDATE SET "chapter_number" = NULL, "language" = EXCLUDED."language";
		DELETE FROM "content_changes" WHERE "revision" <= moved - 1000;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "chapter_translations_content_revision" AFTER INSERT OR DELETE OR TRUNCATE ON "chapter_translations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "chapter_translations_content_change" AFTER UPDATE ON "chapter_translations" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "note_translation_change"();
--> statement-breakpoint
CREATE TRIGGER "translations_content_revision" AFTER INSERT OR DELETE OR TRUNCATE ON "translations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "translations_content_change" AFTER UPDATE ON "translations" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "note_translation_change"();
--> statement-breakpoint
-- A number met again (after a restore) forgets a language noted under it before.
CREATE OR REPLACE FUNCTION "bump_content_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved integer;
BEGIN
	UPDATE "content_revision" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO moved;
	-- No counter row while a restore has emptied the tables: nothing to note.
	IF moved IS NOT NULL THEN
		-- A number met again (a restore put the counter back; it then moves it past the old ones by hand, a gap)
		-- is this change's now.
		INSERT INTO "content_changes" ("revision", "chapter_number") VALUES (moved, NULL)
			ON CONFLICT ("revision") DO UPDATE SET "chapter_number" = EXCLUDED."chapter_number", "language" = NULL;
		DELETE FROM "content_changes" WHERE "revision" <= moved - 1000;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "note_chapter_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved integer;
	text_columns CONSTANT text[] := ARRAY['body_md', 'body_html', 'body_html_renderer', 'word_count', 'tags', 'version', 'updated_at'];
BEGIN
	UPDATE "content_revision" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO moved;
	IF moved IS NOT NULL THEN
		INSERT INTO "content_changes" ("revision", "chapter_number") VALUES (
			moved,
			CASE WHEN to_jsonb(OLD) - text_columns = to_jsonb(NEW) - text_columns THEN NEW."number" END
		) ON CONFLICT ("revision") DO UPDATE SET "chapter_number" = EXCLUDED."chapter_number", "language" = NULL;
		DELETE FROM "content_changes" WHERE "revision" <= moved - 1000;
	END IF;
	RETURN NULL;
END
$$;
