-- A change to a reader's own records (progress, reading days, comments, orders…) forgets only the pages kept
-- for them alone; a kept session holds none of it (ADR 79). Only what a kept session holds forgets the
-- session: the session rows, the account row and reading settings (their own functions, migration 0024),
-- membership (payments, grants, subscriptions: the tier) and the chapters unlocked (a kept session holds
-- them when few). So the reader's event says which it is. Two
-- updates a kept session does not hold touch only the reader's records: a session's last-seen mark (a kept
-- session expires by itself when its mark is due) and the account's last reading day (written by the first
-- progress of each day).
ALTER TABLE "session_events" ADD COLUMN "touches_session" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "note_reader_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	touches boolean := TG_TABLE_NAME IN ('sessions', 'payments', 'membership_grants', 'subscriptions', 'chapter_unlocks')
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
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "note_account_session_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "session_events" ("user_id", "touches_session")
	VALUES (NEW."id", to_jsonb(OLD) - 'last_read_on' IS DISTINCT FROM to_jsonb(NEW) - 'last_read_on');
	RETURN NULL;
END;
$$;
