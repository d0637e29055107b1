CREATE TABLE "reading_day_totals" (
	"day" date PRIMARY KEY NOT NULL,
	"readers" integer NOT NULL,
	"seconds" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_read_on" date;--> statement-breakpoint
CREATE INDEX "reading_days_day" ON "reading_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "users_last_read_on" ON "users" USING btree ("last_read_on");--> statement-breakpoint
CREATE INDEX "users_created_at" ON "users" USING btree ("created_at");--> statement-breakpoint
-- Each reader's newest reading day, for the rows written before the column.
UPDATE "users" SET "last_read_on" = "r"."day" FROM (SELECT "user_id", max("day") AS "day" FROM "reading_days" WHERE "seconds" > 0 GROUP BY "user_id") AS "r" WHERE "r"."user_id" = "users"."id";
