CREATE TABLE "comment_bans" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"banned_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_hearts" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "comment_hearts_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "comment_reports" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "comment_reports_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id"),
	CONSTRAINT "comment_reports_reason_length" CHECK (char_length("comment_reports"."reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"body_md" text NOT NULL,
	"body_html" text NOT NULL,
	"spoiler" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'visible' NOT NULL,
	"hearts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	CONSTRAINT "comments_status_known" CHECK ("comments"."status" in ('visible', 'hidden', 'deleted')),
	CONSTRAINT "comments_body_length" CHECK (char_length("comments"."body_md") <= 5000),
	CONSTRAINT "comments_hearts_non_negative" CHECK ("comments"."hearts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "content_revision" ADD COLUMN "comments" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "comment_bans" ADD CONSTRAINT "comment_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_bans" ADD CONSTRAINT "comment_bans_banned_by_users_id_fk" FOREIGN KEY ("banned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_hearts" ADD CONSTRAINT "comment_hearts_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_hearts" ADD CONSTRAINT "comment_hearts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_hearts_user" ON "comment_hearts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comment_reports_open" ON "comment_reports" USING btree ("created_at") WHERE "comment_reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "comments_chapter_created" ON "comments" USING btree ("chapter_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_parent" ON "comments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "comments_user_created" ON "comments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE FUNCTION "bump_comments_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "content_revision" SET "comments" = "comments" + 1 WHERE "id" = 1;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "comments_comments_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION "bump_comments_revision"();--> statement-breakpoint
CREATE TRIGGER "comment_hearts_comments_revision" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "comment_hearts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_comments_revision"();
