CREATE TABLE "content_revision" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "content_revision_single_row" CHECK ("content_revision"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "content_revision" ("id", "revision") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_content_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "content_revision" SET "revision" = "revision" + 1 WHERE "id" = 1;
	RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['site_settings', 'legal_pages', 'volumes', 'chapters', 'wiki_pages', 'gallery_items', 'products', 'support_tiers', 'fundraiser_goals', 'supporters'] LOOP
		EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"()', t || '_content_revision', t);
	END LOOP;
END
$$;
