import { z } from "zod";
import { localSecondField, requiredInteger, requiredText } from "~/lib/form-fields";

/** The most seconds one move of a reader's reading time takes (ADR 105): an hour. */
export const MAX_READING_MOVE_SECONDS = 3600;

/**
 * The test clock's forms (/admin/clock, ADR 39 and 105): the release time set, to the second, between 1970
 * and 2100 like every date the site accepts (so a test can stand a few seconds before a release); back to the
 * real time; one reader's reading time moved on by 1 to 3,600 seconds.
 */
export const clockSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set"),
    releaseLocal: localSecondField("admin.clock.errors.time").refine(
      (value) => value >= "1970-01-01T00:00" && value < "2100-01-01T00:00",
      { error: "admin.clock.errors.time" },
    ),
  }),
  z.object({ intent: z.literal("reset") }),
  z.object({
    intent: z.literal("reading"),
    readerEmail: requiredText(254, "admin.clock.errors.reader"),
    seconds: requiredInteger(1, MAX_READING_MOVE_SECONDS, "admin.clock.errors.seconds"),
  }),
]);
