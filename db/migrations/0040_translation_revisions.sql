DROP INDEX "chapter_revisions_chapter_version";--> statement-breakpoint
ALTER TABLE "chapter_revisions" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "chapter_translations" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "chapter_revisions_chapter_language_version" ON "chapter_revisions" USING btree ("chapter_id","language","version");--> statement-breakpoint
ALTER TABLE "chapter_revisions" ADD CONSTRAINT "chapter_revisions_language_known" CHECK ("chapter_revisions"."language" in ('en', 'es', 'fr', 'ja'));