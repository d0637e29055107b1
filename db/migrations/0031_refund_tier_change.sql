-- The tier before and after the newest refund of a payment that changed it (ADR 57).
ALTER TABLE "payments" ADD COLUMN "refund_tier_change" jsonb;
