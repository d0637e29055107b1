CREATE TABLE "session_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "note_session_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		INSERT INTO "session_events" ("user_id") VALUES (OLD."user_id");
	ELSE
		INSERT INTO "session_events" ("user_id") VALUES (NEW."user_id");
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "note_account_session_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "session_events" ("user_id") VALUES (NEW."id");
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_session_event" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "note_session_event"();--> statement-breakpoint
CREATE TRIGGER "reading_settings_session_event" AFTER INSERT OR UPDATE OR DELETE ON "reading_settings" FOR EACH ROW EXECUTE FUNCTION "note_session_event"();--> statement-breakpoint
CREATE TRIGGER "users_session_event" AFTER UPDATE OF "role", "suspended_at" ON "users" FOR EACH ROW WHEN (OLD."role" IS DISTINCT FROM NEW."role" OR OLD."suspended_at" IS DISTINCT FROM NEW."suspended_at") EXECUTE FUNCTION "note_account_session_event"();
