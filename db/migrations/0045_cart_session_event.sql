-- A kept session now holds the reader's cart (ADR 102): readers with the same cart share one kept shop page.
-- So a change of the cart forgets the reader's kept sessions on every instance, as membership and unlocks do
-- (migration 0034's list, with cart_items added).
CREATE OR REPLACE FUNCTION "note_reader_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	touches boolean := TG_TABLE_NAME IN ('sessions', 'payments', 'membership_grants', 'subscriptions', 'chapter_unlocks', 'cart_items')
		AND NOT (TG_TABLE_NAME = 'sessions' AND TG_OP = 'UPDATE'
			AND to_jsonb(OLD) - 'last_seen_at' = to_jsonb(NEW) - 'last_seen_at');
BEGIN
	IF TG_OP <> 'INSERT' AND OLD."user_id" IS NOT NULL THEN
		INSERT INTO "session_events" ("user_id", "touches_session") VALUES (OLD."user_id", touches);
	END IF;
	IF TG_OP <> 'DELETE' AND NEW."user_id" IS NOT NULL
		AND (TG_OP = 'INSERT' OR NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
		INSERT INTO "session_events" ("user_id", "touches_session") VALUES (NEW."user_id", touches);
	END IF;
	RETURN NULL;
END;
$$;
