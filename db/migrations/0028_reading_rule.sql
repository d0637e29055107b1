CREATE TABLE "chapter_visitor_days" (
	"chapter_id" integer NOT NULL,
	"day" date NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "chapter_visitor_days_chapter_id_day_pk" PRIMARY KEY("chapter_id","day"),
	CONSTRAINT "chapter_visitor_days_counts" CHECK ("chapter_visitor_days"."started" >= 0 and "chapter_visitor_days"."completed" >= 0)
);
--> statement-breakpoint
CREATE TABLE "visitor_view_key" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"secret" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reading_progress" ADD COLUMN "counted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chapter_visitor_days" ADD CONSTRAINT "chapter_visitor_days_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: what counts as reading (ADR 58). Reading time kept before this was the page's own count, not
-- established by the server; a chapter completed with less kept reading time than its length needs at 10 words
-- a second (and at least 30 s) no longer counts as completed. Achievements already earned stay earned.
UPDATE "reading_progress" AS "p" SET "completed" = false, "completed_at" = NULL, "completed_local" = NULL
FROM "chapters" AS "c"
WHERE "c"."id" = "p"."chapter_id" AND "p"."completed"
  AND "p"."reading_time_seconds" < greatest(30, ceil("c"."word_count" / 10.0));
