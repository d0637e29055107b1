-- A kept session carries the reader's membership tier for the page cache's viewer check (ADR 51): whatever
-- changes a tier (a payment's status or amount, days granted or revoked, a subscription) writes a session
-- event for the reader, so every instance forgets what it kept. Payments of deleted accounts have no reader.
CREATE FUNCTION "note_membership_session_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD."user_id" IS NOT NULL THEN
		INSERT INTO "session_events" ("user_id") VALUES (OLD."user_id");
	END IF;
	IF TG_OP <> 'DELETE' AND NEW."user_id" IS NOT NULL
		AND (TG_OP = 'INSERT' OR NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
		INSERT INTO "session_events" ("user_id") VALUES (NEW."user_id");
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payments_session_event" AFTER INSERT OR DELETE OR UPDATE OF "user_id", "status", "amount_cents", "refunded_cents" ON "payments" FOR EACH ROW EXECUTE FUNCTION "note_membership_session_event"();--> statement-breakpoint
CREATE TRIGGER "membership_grants_session_event" AFTER INSERT OR UPDATE OR DELETE ON "membership_grants" FOR EACH ROW EXECUTE FUNCTION "note_membership_session_event"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_session_event" AFTER INSERT OR UPDATE OR DELETE ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION "note_membership_session_event"();
