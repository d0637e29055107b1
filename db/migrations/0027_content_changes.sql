CREATE TABLE "content_changes" (
	"revision" integer PRIMARY KEY NOT NULL,
	"chapter_number" integer
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "body_html" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "body_html_renderer" integer;
--> statement-breakpoint
-- What moved the content revision (ADR 54): every move by a trigger writes a row, so an instance learns which
-- pages a change retires. Only the last 1,000 moves are kept; an instance that finds one missing (a gap: this
-- pruning, a backup's restore, a move made by hand) treats it as a change to everything.
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
			ON CONFLICT ("revision") DO UPDATE SET "chapter_number" = EXCLUDED."chapter_number";
		DELETE FROM "content_changes" WHERE "revision" <= moved - 1000;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A chapter's update names the chapter when only its text changed (body and its rendering, word count, tags,
-- version, edit time): the columns no page but the chapter's own shows, apart from the pages listing chapters
-- (the table of contents' reading minutes, the feeds, the sitemap). Any other column compared, whatever the
-- columns are.
CREATE FUNCTION "note_chapter_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved integer;
	text_columns CONSTANT text[] := ARRAY['body_md', 'body_html', 'body_html_renderer', 'word_count', 'tags', 'version', 'updated_at'];
BEGIN
	UPDATE "content_revision" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO moved;
	IF moved IS NOT NULL THEN
		INSERT INTO "content_changes" ("revision", "chapter_number") VALUES (
			moved,
			CASE WHEN to_jsonb(OLD) - text_columns = to_jsonb(NEW) - text_columns THEN NEW."number" END
		) ON CONFLICT ("revision") DO UPDATE SET "chapter_number" = EXCLUDED."chapter_number";
		DELETE FROM "content_changes" WHERE "revision" <= moved - 1000;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "chapters_content_revision" ON "chapters";
--> statement-breakpoint
CREATE TRIGGER "chapters_content_revision" AFTER INSERT OR DELETE OR TRUNCATE ON "chapters" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "chapters_content_change" AFTER UPDATE ON "chapters" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "note_chapter_change"();
--> statement-breakpoint
-- A text changed without its rendering (a writer that does not render: SQL by hand, an older tool) loses the
-- rendering, so no reader is shown the old text: the reader renders it from the text instead.
CREATE FUNCTION "forget_stale_body_html"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."body_md" IS DISTINCT FROM OLD."body_md" AND NEW."body_html" IS NOT DISTINCT FROM OLD."body_html" THEN
		NEW."body_html" := NULL;
		NEW."body_html_renderer" := NULL;
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "chapters_body_html_follows" BEFORE UPDATE ON "chapters" FOR EACH ROW EXECUTE FUNCTION "forget_stale_body_html"();
