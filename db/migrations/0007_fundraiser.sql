ALTER TABLE "supporters" DROP CONSTRAINT "supporters_amount_positive";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_kind_known";--> statement-breakpoint
DROP INDEX "supporters_name_supported_at";--> statement-breakpoint
ALTER TABLE "supporters" ALTER COLUMN "amount_cents" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "fundraiser_goals" ADD COLUMN "period" text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "fundraiser_goals" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supporters" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "supporters" ADD COLUMN "display" text DEFAULT 'name' NOT NULL;--> statement-breakpoint
ALTER TABLE "supporters" ADD COLUMN "message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "supporter_choice" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "subscription_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_invoice_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "amount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_tier_key" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supporters" ADD CONSTRAINT "supporters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "supporters_supported_at" ON "supporters" USING btree ("supported_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_invoice" ON "payments" USING btree ("provider","provider_invoice_id");--> statement-breakpoint
CREATE INDEX "payments_subscription_id" ON "payments" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "payments_paid_at" ON "payments" USING btree ("paid_at");--> statement-breakpoint
CREATE UNIQUE INDEX "supporters_name_supported_at" ON "supporters" USING btree ("name","supported_at") WHERE "supporters"."user_id" is null;--> statement-breakpoint
ALTER TABLE "supporters" ADD CONSTRAINT "supporters_user_id_unique" UNIQUE("user_id");--> statement-breakpoint
ALTER TABLE "fundraiser_goals" ADD CONSTRAINT "fundraiser_goals_period_known" CHECK ("fundraiser_goals"."period" in ('campaign', 'monthly'));--> statement-breakpoint
ALTER TABLE "fundraiser_goals" ADD CONSTRAINT "fundraiser_goals_ends_after_start" CHECK ("fundraiser_goals"."ends_at" is null or "fundraiser_goals"."ends_at" > "fundraiser_goals"."starts_at");--> statement-breakpoint
ALTER TABLE "supporters" ADD CONSTRAINT "supporters_amount_imported_only" CHECK (("supporters"."user_id" is null and "supporters"."amount_cents" > 0) or ("supporters"."user_id" is not null and "supporters"."amount_cents" = 0));--> statement-breakpoint
ALTER TABLE "supporters" ADD CONSTRAINT "supporters_message_length" CHECK (char_length("supporters"."message") <= 140);--> statement-breakpoint
ALTER TABLE "supporters" ADD CONSTRAINT "supporters_display_known" CHECK ("supporters"."display" in ('username', 'name', 'anonymous', 'hidden'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_known" CHECK ("payments"."kind" in ('coins', 'product', 'subscription', 'gift'));