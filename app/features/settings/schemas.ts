import { z } from "zod";
import { checkbox } from "~/features/auth/schemas";
import { wholeNumber } from "~/lib/forms";

/**
 * The /settings forms that are not the account forms (app/features/auth/schemas.ts has those): shared by
 * the browser and the action, messages as catalogue keys.
 */

/** "" follows the browser's zone; a name fixes that one (the action checks it is a zone Intl knows). */
export const timeZoneSchema = z.object({
  timeZone: z
    .string({ error: "settings.timeZone.unknown" })
    .trim()
    .max(64, { error: "settings.timeZone.unknown" }),
});

export const emailChoicesSchema = z.object({
  newChapters: checkbox,
  accountNotices: checkbox,
  qaPublished: checkbox,
  news: checkbox,
});

export const sessionSchema = z.object({
  session: wholeNumber(1, 2_147_483_647, "settings.sessions.unknown"),
});

export const unlinkSchema = z.object({
  provider: z.enum(["discord", "google"], { error: "settings.linked.unknown" }),
});
