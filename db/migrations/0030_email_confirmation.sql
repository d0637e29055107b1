ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmation_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_confirmation_hash" ON "users" USING btree ("email_confirmation_hash");--> statement-breakpoint
-- Hand-written (ADR 56). Accounts made before the confirmation e-mail existed had no way to confirm their
-- address; they keep everything they could do (commenting) and see no banner: their address counts as
-- confirmed from the day the account was made.
UPDATE "users" SET "email_confirmed_at" = "created_at" WHERE "email_confirmed_at" IS NULL;
