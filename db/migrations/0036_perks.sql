CREATE TABLE "discord_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"discord_user_id" text NOT NULL,
	"discord_username" text NOT NULL,
	"in_guild" boolean DEFAULT false NOT NULL,
	"applied_role_id" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"synced_at" timestamp with time zone,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qa_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_mails_status_known" CHECK ("qa_mails"."status" in ('queued', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "qa_mails_attempts_non_negative" CHECK ("qa_mails"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "qa_months" (
	"month" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'members' NOT NULL,
	"published_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_months_month_format" CHECK ("qa_months"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "qa_months_visibility_known" CHECK ("qa_months"."visibility" in ('everyone', 'members'))
);
--> statement-breakpoint
CREATE TABLE "qa_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"body" text NOT NULL,
	"anonymous" boolean DEFAULT false NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_questions_month_format" CHECK ("qa_questions"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "qa_questions_body_length" CHECK (char_length("qa_questions"."body") between 10 and 1000)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_qa" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "discord_links" ADD CONSTRAINT "discord_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_mails" ADD CONSTRAINT "qa_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_questions" ADD CONSTRAINT "qa_questions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discord_links_discord_user_id" ON "discord_links" USING btree ("discord_user_id");--> statement-breakpoint
CREATE INDEX "discord_links_synced_at" ON "discord_links" USING btree ("synced_at");--> statement-breakpoint
CREATE UNIQUE INDEX "qa_mails_user_month" ON "qa_mails" USING btree ("user_id","month");--> statement-breakpoint
CREATE INDEX "qa_mails_due" ON "qa_mails" USING btree ("next_attempt_at") WHERE "qa_mails"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "qa_questions_user_month" ON "qa_questions" USING btree ("user_id","month");--> statement-breakpoint
CREATE INDEX "qa_questions_month" ON "qa_questions" USING btree ("month","id");--> statement-breakpoint
-- hand-written (the Discord link: ADR 84)
-- The settings page (kept for its reader, ADR 53) shows the link, the guild and the role given: those moves
-- are a reader event. The sync's own bookkeeping (lease, last error, synced time) is not, so the reconcile
-- job's ticks retire nobody's pages.
CREATE TRIGGER "discord_links_reader_event" AFTER INSERT OR DELETE OR UPDATE OF "user_id", "discord_user_id", "discord_username", "in_guild", "applied_role_id" ON "discord_links" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
--> statement-breakpoint
-- hand-written (the monthly Q&A: ADR 82)
-- A reader's own rows (ADR 53, 79): their questions and their Q&A e-mails go in their data download, so a
-- change notes an event for their own records, as release_mails does (migration 0026).
CREATE TRIGGER "qa_questions_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "qa_questions" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "qa_mails_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "qa_mails" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
