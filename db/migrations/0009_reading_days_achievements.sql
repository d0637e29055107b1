CREATE TABLE "achievements" (
	"key" text PRIMARY KEY NOT NULL,
	"icon" text NOT NULL,
	"category" text NOT NULL,
	"rule" text NOT NULL,
	"threshold" integer,
	"hidden" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reading_days" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	"languages" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "reading_days_user_id_day_pk" PRIMARY KEY("user_id","day"),
	CONSTRAINT "reading_days_seconds_range" CHECK ("reading_days"."seconds" between 0 and 86400)
);
--> statement-breakpoint
CREATE TABLE "user_achievements" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_achievements_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "reading_progress" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reading_progress" ADD COLUMN "completed_local" timestamp;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_days" ADD CONSTRAINT "reading_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_achievements" ADD CONSTRAINT "user_achievements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_achievements" ADD CONSTRAINT "user_achievements_key_achievements_key_fk" FOREIGN KEY ("key") REFERENCES "public"."achievements"("key") ON DELETE cascade ON UPDATE no action;