import { z } from "zod";
import { markdownText } from "~/lib/form-fields";

/** The acknowledgements' limit, in bytes of UTF-8 (the column's check says the same). */
export const ACKNOWLEDGEMENTS_MAX_BYTES = 20_000;

/** The admin's credits form: the author's acknowledgements, Markdown, trimmed. */
export const creditsSchema = z.object({
  acknowledgementsMd: markdownText(ACKNOWLEDGEMENTS_MAX_BYTES, "admin.credits.errors.text").transform(
    (text) => text.trim(),
  ),
});
