import { z } from "zod";
import { wholeNumber } from "~/lib/forms";
import { INT32_MAX } from "~/lib/parse";

/** A vote as /polls posts it: the poll and the option chosen, each a positive int4. */
export const voteSchema = z.object({
  poll: wholeNumber(1, INT32_MAX, "polls.errors.choice"),
  option: wholeNumber(1, INT32_MAX, "polls.errors.choice"),
});

export type VoteInput = z.output<typeof voteSchema>;
