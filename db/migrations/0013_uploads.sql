CREATE TABLE "uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"original_filename" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_hash_unique" UNIQUE("hash"),
	CONSTRAINT "uploads_size_positive" CHECK ("uploads"."width" > 0 and "uploads"."height" > 0 and "uploads"."bytes" > 0),
	CONSTRAINT "uploads_hash_hex" CHECK ("uploads"."hash" ~ '^[0-9a-f]{32}$')
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;