CREATE TABLE "announcement_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"announcement_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"unsubscribe_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcement_mails_status_known" CHECK ("announcement_mails"."status" in ('queued', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "announcement_mails_attempts_non_negative" CHECK ("announcement_mails"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body_md" text NOT NULL,
	"publish_key" text NOT NULL,
	"author_id" integer,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "announcements_title_length" CHECK (char_length("announcements"."title") between 1 and 120),
	CONSTRAINT "announcements_body_length" CHECK (char_length("announcements"."body_md") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_news" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "announcement_mails" ADD CONSTRAINT "announcement_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_mails" ADD CONSTRAINT "announcement_mails_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "announcement_mails_user_announcement" ON "announcement_mails" USING btree ("user_id","announcement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "announcement_mails_unsubscribe_hash" ON "announcement_mails" USING btree ("unsubscribe_hash");--> statement-breakpoint
CREATE INDEX "announcement_mails_due" ON "announcement_mails" USING btree ("next_attempt_at") WHERE "announcement_mails"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "announcement_mails_announcement_id" ON "announcement_mails" USING btree ("announcement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "announcements_publish_key" ON "announcements" USING btree ("publish_key");--> statement-breakpoint
CREATE INDEX "announcements_published_at" ON "announcements" USING btree ("published_at");--> statement-breakpoint
-- hand-written
-- Announcements are content (the home page shows the newest): any change moves the content revision. A reader's
-- announcement e-mails go in their data download: a change notes an event for their own records (as qa_mails).
CREATE TRIGGER "announcements_content_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "announcements" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();--> statement-breakpoint
CREATE TRIGGER "announcement_mails_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "announcement_mails" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
