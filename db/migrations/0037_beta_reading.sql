CREATE TABLE "beta_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"paragraph" integer,
	"quote" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "beta_feedback_paragraph_range" CHECK ("beta_feedback"."paragraph" is null or "beta_feedback"."paragraph" >= 0),
	CONSTRAINT "beta_feedback_body_size" CHECK (char_length("beta_feedback"."body") between 1 and 4000)
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "beta_readers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "beta_feedback" ADD CONSTRAINT "beta_feedback_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_feedback" ADD CONSTRAINT "beta_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beta_feedback_chapter_created" ON "beta_feedback" USING btree ("chapter_id","created_at");--> statement-breakpoint
CREATE INDEX "beta_feedback_user_chapter_created" ON "beta_feedback" USING btree ("user_id","chapter_id","created_at");--> statement-breakpoint
-- hand-written (beta reading: ADR 83)
-- A note is a row of its writer's own (their data download): an event for their own records (ADR 53, 79).
CREATE TRIGGER "beta_feedback_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "beta_feedback" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
