ALTER TABLE "chapter_revisions" ADD COLUMN "notes" jsonb;--> statement-breakpoint
ALTER TABLE "chapter_translations" ADD COLUMN "note_before" text;--> statement-breakpoint
ALTER TABLE "chapter_translations" ADD COLUMN "note_after" text;--> statement-breakpoint
-- Revisions keep the notes from now on (ADR 100). Of the versions kept before, only the notes of a chapter's
-- current version are known (they are the chapter's own), and a translation had none until now; the others
-- stay null: not known, so restoring one leaves the notes as they are.
UPDATE "chapter_revisions" SET "notes" = jsonb_build_object('before', "chapters"."note_before", 'after', "chapters"."note_after") FROM "chapters" WHERE "chapter_revisions"."chapter_id" = "chapters"."id" AND "chapter_revisions"."language" = 'en' AND "chapter_revisions"."version" = "chapters"."version";--> statement-breakpoint
UPDATE "chapter_revisions" SET "notes" = '{"before": null, "after": null}'::jsonb WHERE "language" <> 'en';
