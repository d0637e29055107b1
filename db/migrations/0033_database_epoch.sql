CREATE TABLE "database_epoch" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "database_epoch_single_row" CHECK ("database_epoch"."id" = 1)
);
--> statement-breakpoint
-- The one row, its epoch drawn now: every database starts as its own copy of the data (ADR 61).
INSERT INTO "database_epoch" ("id") VALUES (1) ON CONFLICT DO NOTHING;
