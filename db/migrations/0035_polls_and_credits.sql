CREATE TABLE "credits_page" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"acknowledgements_md" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credits_page_single_row" CHECK ("credits_page"."id" = 1),
	CONSTRAINT "credits_page_length" CHECK (octet_length("credits_page"."acknowledgements_md") <= 20000)
);
--> statement-breakpoint
CREATE TABLE "poll_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"poll_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"label" text NOT NULL,
	"upload_id" integer NOT NULL,
	CONSTRAINT "poll_options_poll_position" UNIQUE("poll_id","position"),
	CONSTRAINT "poll_options_id_poll" UNIQUE("id","poll_id"),
	CONSTRAINT "poll_options_position_range" CHECK ("poll_options"."position" between 0 and 7),
	CONSTRAINT "poll_options_label_length" CHECK (char_length("poll_options"."label") between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "poll_votes" (
	"poll_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"option_id" integer NOT NULL,
	"voted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poll_votes_pkey" PRIMARY KEY("poll_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "polls" (
	"id" serial PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "polls_closes_after_opens" CHECK ("polls"."closes_at" > "polls"."opens_at"),
	CONSTRAINT "polls_question_length" CHECK (char_length("polls"."question") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_option_of_poll" FOREIGN KEY ("option_id","poll_id") REFERENCES "public"."poll_options"("id","poll_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poll_votes_option" ON "poll_votes" USING btree ("option_id");--> statement-breakpoint
CREATE INDEX "poll_votes_user" ON "poll_votes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "polls_opens_at" ON "polls" USING btree ("opens_at");--> statement-breakpoint
-- hand-written
-- Polls, their options and the credits page's text are content: any change moves the content revision
-- (db/schema/streams.ts). Votes move nothing: /polls is rendered per reader, never kept.
CREATE TRIGGER "polls_content_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "polls" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "poll_options_content_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "poll_options" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "credits_page_content_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "credits_page" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_revision"();
--> statement-breakpoint
CREATE TRIGGER "poll_votes_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "poll_votes" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
