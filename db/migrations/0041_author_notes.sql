ALTER TABLE "chapters" ADD COLUMN "note_before" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "note_after" text;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "author_notes" text DEFAULT 'folded' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_author_notes" CHECK ("reading_settings"."author_notes" in ('folded', 'full'));