CREATE TABLE "chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"volume_id" integer NOT NULL,
	"title" text NOT NULL,
	"body_md" text NOT NULL,
	"word_count" integer NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"coins_required" integer DEFAULT 0 NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"artwork" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chapters_number_unique" UNIQUE("number"),
	CONSTRAINT "chapters_coins_required_non_negative" CHECK ("chapters"."coins_required" >= 0),
	CONSTRAINT "chapters_status_known" CHECK ("chapters"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "fundraiser_goals" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description_md" text DEFAULT '' NOT NULL,
	"target_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fundraiser_goals_title_unique" UNIQUE("title"),
	CONSTRAINT "fundraiser_goals_target_positive" CHECK ("fundraiser_goals"."target_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "gallery_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"image_url" text NOT NULL,
	"description_md" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gallery_items_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "legal_pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body_md" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description_md" text DEFAULT '' NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"category" text NOT NULL,
	"membership_days" integer DEFAULT 0 NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"image_url" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "products_price_non_negative" CHECK ("products"."price_cents" >= 0),
	CONSTRAINT "products_stock_non_negative" CHECK ("products"."stock" >= 0),
	CONSTRAINT "products_membership_days_non_negative" CHECK ("products"."membership_days" >= 0),
	CONSTRAINT "products_category_known" CHECK ("products"."category" in ('books', 'prints', 'limited'))
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"title" text NOT NULL,
	"tagline" text NOT NULL,
	"synopsis" text DEFAULT '' NOT NULL,
	"author" text NOT NULL,
	"location" text NOT NULL,
	"role" text NOT NULL,
	"started_year" integer NOT NULL,
	"email" text NOT NULL,
	"social_label" text NOT NULL,
	"social_url" text NOT NULL,
	"community_label" text NOT NULL,
	"community_url" text NOT NULL,
	"about_md" text NOT NULL,
	CONSTRAINT "site_settings_single_row" CHECK ("site_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "support_tiers" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"perks" text[] DEFAULT '{}'::text[] NOT NULL,
	"pitch" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "support_tiers_amount_positive" CHECK ("support_tiers"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "supporters" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tier" text NOT NULL,
	"emoji" text DEFAULT '' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"supported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "supporters_amount_positive" CHECK ("supporters"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "volumes" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"summary_md" text DEFAULT '' NOT NULL,
	"artwork_url" text,
	CONSTRAINT "volumes_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "wiki_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"section" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"body_md" text NOT NULL,
	"image_url" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "wiki_pages_section_known" CHECK ("wiki_pages"."section" in ('characters', 'world', 'items'))
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_volume_id_volumes_id_fk" FOREIGN KEY ("volume_id") REFERENCES "public"."volumes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "supporters_name_supported_at" ON "supporters" USING btree ("name","supported_at");--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_pages_section_slug" ON "wiki_pages" USING btree ("section","slug");