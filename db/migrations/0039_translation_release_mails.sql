CREATE TABLE "translation_announcements" (
	"chapter_id" integer NOT NULL,
	"language" text NOT NULL,
	"announced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translation_announcements_chapter_id_language_pk" PRIMARY KEY("chapter_id","language"),
	CONSTRAINT "translation_announcements_language_known" CHECK ("translation_announcements"."language" in ('es', 'fr', 'ja'))
);
--> statement-breakpoint
ALTER TABLE "release_mails" DROP CONSTRAINT "release_mails_kind_known";--> statement-breakpoint
DROP INDEX "release_mails_user_chapter";--> statement-breakpoint
ALTER TABLE "release_mails" ADD COLUMN "language" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "translation_announcements" ADD CONSTRAINT "translation_announcements_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_mails_user_chapter_language" ON "release_mails" USING btree ("user_id","chapter_id","language");--> statement-breakpoint
ALTER TABLE "release_mails" ADD CONSTRAINT "release_mails_language_of_kind" CHECK (("release_mails"."kind" = 'translation') = ("release_mails"."language" in ('es', 'fr', 'ja')) and "release_mails"."language" in ('', 'es', 'fr', 'ja'));--> statement-breakpoint
ALTER TABLE "release_mails" ADD CONSTRAINT "release_mails_kind_known" CHECK ("release_mails"."kind" in ('release', 'early', 'translation'));--> statement-breakpoint
-- The translations there are already were announced as far as this database goes: only one published from now
-- on mails its readers (a site upgraded with years of translations mails nobody about the past).
INSERT INTO "translation_announcements" ("chapter_id", "language") SELECT "chapter_id", "language" FROM "chapter_translations";
