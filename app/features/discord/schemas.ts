import { z } from "zod";

/** OAuth's state is ours (43 base64url characters); a code is Discord's, short. Anything longer is refused. */
export const STATE_MAX = 128;
export const CODE_MAX = 512;
const ERROR_MAX = 64;

const token = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\w.~-]+$/)
    .optional();

/** The callback's query: what Discord sends back (code and state, or an error). */
export const callbackSchema = z.object({
  code: token(CODE_MAX),
  state: token(STATE_MAX),
  error: z.string().max(ERROR_MAX).optional(),
});

/** The section's form: link (to Discord's authorize page) or unlink. */
export const discordFormSchema = z.object({ intent: z.enum(["link", "unlink"]) });
