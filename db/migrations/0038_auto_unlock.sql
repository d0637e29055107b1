CREATE TABLE "auto_unlock_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"daily_cap" integer DEFAULT 5 NOT NULL,
	"confirmed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_unlock_settings_daily_cap" CHECK ("auto_unlock_settings"."daily_cap" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "chapter_unlocks" ADD COLUMN "auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "auto_unlock_settings" ADD CONSTRAINT "auto_unlock_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written (automatic unlocking: ADR 90)
-- The setting shows on /settings, a page kept for its reader: an event for their own records (ADR 53, 79).
CREATE TRIGGER "auto_unlock_settings_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "auto_unlock_settings" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
