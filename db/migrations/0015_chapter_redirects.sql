CREATE TABLE "chapter_redirects" (
	"number" integer PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chapter_redirects" ADD CONSTRAINT "chapter_redirects_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;