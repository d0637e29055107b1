ALTER TABLE "coin_ledger" ADD COLUMN "actor_id" integer;--> statement-breakpoint
ALTER TABLE "coin_ledger" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "membership_grants" ADD COLUMN "granted_by" integer;--> statement-breakpoint
ALTER TABLE "membership_grants" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coin_ledger" ADD CONSTRAINT "coin_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_grants" ADD CONSTRAINT "membership_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;