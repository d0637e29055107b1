-- Every change to a reader's own records writes a session event for them (ADR 53): each instance then
-- forgets their kept session and the pages kept for them alone (/account, /achievements, /settings,
-- /checkout). Migrations 0024 and 0025 cover sessions ended, reading settings, role and suspension, and
-- membership; this adds every other table that holds a reader's rows, and any change to the account row.
-- A test checks that no table with a `user_id` column is left out.
-- The function migration 0025 made for membership rows is the general one (a row's `user_id`, old and new).
ALTER FUNCTION "note_membership_session_event"() RENAME TO "note_reader_event";--> statement-breakpoint
CREATE TRIGGER "users_reader_event" AFTER UPDATE ON "users" FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "note_account_session_event"();--> statement-breakpoint
CREATE TRIGGER "sessions_reader_event" AFTER INSERT OR UPDATE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "reading_progress_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "reading_progress" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "reading_days_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "reading_days" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "user_achievements_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "user_achievements" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "feed_tokens_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "feed_tokens" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "coin_ledger_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "coin_ledger" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "chapter_unlocks_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "chapter_unlocks" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "comments_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "comments" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "comment_hearts_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "comment_hearts" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "comment_reports_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "comment_reports" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "comment_bans_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "comment_bans" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "supporters_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "supporters" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "release_mails_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "release_mails" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "cart_items_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "cart_items" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "orders_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "oauth_identities_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "oauth_identities" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();--> statement-breakpoint
CREATE TRIGGER "password_reset_tokens_reader_event" AFTER INSERT OR UPDATE OR DELETE ON "password_reset_tokens" FOR EACH ROW EXECUTE FUNCTION "note_reader_event"();
