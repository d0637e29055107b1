ALTER TABLE "payments" ADD COLUMN "chapter_number" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "unlock_chapter" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_chapter_number_range" CHECK ("payments"."chapter_number" between 1 and 999999);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_unlock_needs_chapter" CHECK (not "payments"."unlock_chapter" or "payments"."chapter_number" is not null);