CREATE TABLE "chapter_announcements" (
	"chapter_id" integer NOT NULL,
	"audience" text NOT NULL,
	"announced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapter_announcements_chapter_id_audience_pk" PRIMARY KEY("chapter_id","audience"),
	CONSTRAINT "chapter_announcements_audience_known" CHECK ("chapter_announcements"."audience" in ('public', 'observer', 'analyst', 'first_human'))
);
--> statement-breakpoint
CREATE TABLE "release_mail_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"baseline_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_mail_state_single_row" CHECK ("release_mail_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "release_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"unsubscribe_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_mails_kind_known" CHECK ("release_mails"."kind" in ('release', 'early')),
	CONSTRAINT "release_mails_status_known" CHECK ("release_mails"."status" in ('queued', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "release_mails_attempts_non_negative" CHECK ("release_mails"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "chapter_announcements" ADD CONSTRAINT "chapter_announcements_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_mails" ADD CONSTRAINT "release_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_mails" ADD CONSTRAINT "release_mails_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_mails_user_chapter" ON "release_mails" USING btree ("user_id","chapter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "release_mails_unsubscribe_hash" ON "release_mails" USING btree ("unsubscribe_hash");--> statement-breakpoint
CREATE INDEX "release_mails_due" ON "release_mails" USING btree ("next_attempt_at") WHERE "release_mails"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "release_mails_chapter_id" ON "release_mails" USING btree ("chapter_id");