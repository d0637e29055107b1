CREATE TABLE "chapter_unlocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"coins_spent" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reading_progress" (
	"user_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"scroll_position" real DEFAULT 0 NOT NULL,
	"paragraph" integer DEFAULT 0 NOT NULL,
	"completion_percentage" integer DEFAULT 0 NOT NULL,
	"reading_time_seconds" integer DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"bookmarks" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"last_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_progress_user_id_chapter_id_pk" PRIMARY KEY("user_id","chapter_id"),
	CONSTRAINT "reading_progress_scroll_range" CHECK ("reading_progress"."scroll_position" >= 0 and "reading_progress"."scroll_position" <= 1),
	CONSTRAINT "reading_progress_completion_range" CHECK ("reading_progress"."completion_percentage" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "reading_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"font_size" integer DEFAULT 16 NOT NULL,
	"font_family" text DEFAULT 'serif' NOT NULL,
	"line_height" real DEFAULT 1.75 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_settings_font_size" CHECK ("reading_settings"."font_size" in (14, 16, 18, 20)),
	CONSTRAINT "reading_settings_line_height" CHECK ("reading_settings"."line_height" in (1.5, 1.75, 2))
);
--> statement-breakpoint
ALTER TABLE "chapter_unlocks" ADD CONSTRAINT "chapter_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_unlocks" ADD CONSTRAINT "chapter_unlocks_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_progress" ADD CONSTRAINT "reading_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_progress" ADD CONSTRAINT "reading_progress_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chapter_unlocks_user_chapter" ON "chapter_unlocks" USING btree ("user_id","chapter_id");