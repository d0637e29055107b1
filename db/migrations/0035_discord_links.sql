CREATE TABLE "discord_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"discord_user_id" text NOT NULL,
	"discord_username" text NOT NULL,
	"in_guild" boolean DEFAULT false NOT NULL,
	"applied_role_id" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"synced_at" timestamp with time zone,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discord_links" ADD CONSTRAINT "discord_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discord_links_discord_user_id" ON "discord_links" USING btree ("discord_user_id");--> statement-breakpoint
CREATE INDEX "discord_links_synced_at" ON "discord_links" USING btree ("synced_at");--> statement-breakpoint
-- hand-written
-- The settings page (kept for its reader, ADR 53) shows the link, the guild and the role given: those moves
-- are a reader event. The sync's own bookkeeping (lease, last error, synced time) is not, so the reconcile
-- job's ticks retire nobody's pages.
CREATE TRIGGER "discord_links_reader_event" AFTER INSERT OR DELETE OR UPDATE OF "user_id", "discord_user_id", "discord_username", "in_guild", "applied_role_id" ON "discord_links" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
