CREATE TABLE "known_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passkey_enrolments" (
	"challenge" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "second_factors" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" bigint,
	"credential_id" text,
	"public_key" text,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" text,
	"confirmed_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "second_factors_kind_known" CHECK ("second_factors"."kind" in ('totp', 'passkey'))
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"remember" boolean DEFAULT false NOT NULL,
	"redirect_to" text DEFAULT '/account' NOT NULL,
	"code_hash" text,
	"codes_sent" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"webauthn_challenge" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_challenges_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_via_known";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkey_enrolments" ADD CONSTRAINT "passkey_enrolments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factors" ADD CONSTRAINT "second_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "known_devices_user_device" ON "known_devices" USING btree ("user_id","device_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_code" ON "recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
CREATE INDEX "second_factors_user_id" ON "second_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "second_factors_credential_id" ON "second_factors" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_user_id" ON "sign_in_challenges" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_via_known" CHECK ("audit_log"."via" in ('admin', 'cli', 'account'));--> statement-breakpoint
-- The second factor's tables hold a reader's rows: a change writes a session event for them (ADR 53), so every
-- instance forgets the pages kept for them alone (/settings/security after an enrolment or a removal).
CREATE TRIGGER "known_devices_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "known_devices" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "passkey_enrolments_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "passkey_enrolments" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "recovery_codes_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "recovery_codes" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "second_factors_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "second_factors" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "sign_in_challenges_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "sign_in_challenges" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
