import { z } from "zod";
import { requiredInteger } from "~/lib/form-fields";

/** Limits of the reader forms (ADR 40): an adjustment of up to 100,000 coins, up to ten years of days. */
export const READER_LIMITS = { coins: 100_000, days: 3650, note: 300 } as const;

/** The author's reason, required: it is kept with the ledger entry, the grant and in the audit log. */
const note = z
  .string({ error: "admin.reader.errors.note" })
  .trim()
  .min(3, { error: "admin.reader.errors.note" })
  .max(READER_LIMITS.note, { error: "admin.reader.errors.note" });

/** Every money action is confirmed by ticking a box. */
const confirm = z.literal("on", { error: "admin.reader.errors.confirm" });

/** The three forms of a reader's page, told apart by `intent`. */
export const readerActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("coins"),
    delta: requiredInteger(-READER_LIMITS.coins, READER_LIMITS.coins, "admin.reader.errors.delta").refine(
      (delta) => delta !== 0,
      { error: "admin.reader.errors.delta" },
    ),
    note,
    confirm,
  }),
  z.object({
    intent: z.literal("membership"),
    days: requiredInteger(1, READER_LIMITS.days, "admin.reader.errors.days"),
    note,
    confirm,
  }),
  z.object({ intent: z.enum(["suspend", "restore"]), note, confirm }),
]);
