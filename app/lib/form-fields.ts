import { z } from "zod";
import { parseWholeNumber } from "~/lib/parse";

/**
 * Field schemas the admin's forms share (browser and action): each refuses with its one message key, so a
 * bad field is named beside it and nothing else is said.
 */

/** Form text as stored: line breaks as "\n" (forms post CRLF). */
export const normalisedText = (text: string) => text.replace(/\r\n?/g, "\n");

/**
 * A wall-clock minute in the author's zone as a datetime-local input sends it ("YYYY-MM-DDTHH:MM"), in years
 * 1970 to 2199, on a day the calendar has (not 30 February, which Date would roll over into March).
 */
export const localMinuteField = (error: string) =>
  z
    .string({ error })
    .regex(/^(19[7-9]\d|2[01]\d\d)-\d{2}-\d{2}T\d{2}:\d{2}$/, { error })
    .refine(
      (value) => {
        const instant = new Date(`${value}:00Z`);
        return !Number.isNaN(instant.getTime()) && instant.toISOString().startsWith(value);
      },
      { error },
    );

/** A local date and time to the second (`YYYY-MM-DDTHH:MM:SS`), or to the minute as `localMinuteField`. */
export const localSecondField = (error: string) =>
  z
    .string({ error })
    .regex(/^(19[7-9]\d|2[01]\d\d)-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { error })
    .refine(
      (value) => {
        const full = value.length === 16 ? `${value}:00` : value;
        const instant = new Date(`${full}Z`);
        return !Number.isNaN(instant.getTime()) && instant.toISOString().startsWith(full);
      },
      { error },
    );

/** A required line of text, trimmed, of at most `max` characters. */
export const requiredText = (max: number, error: string) =>
  z.string({ error }).trim().min(1, { error }).max(max, { error });

/** An address part: lower-case letters and digits in runs joined by single hyphens, at most `max` long. */
export const slugText = (max: number, error: string) =>
  z
    .string({ error })
    .trim()
    .max(max, { error })
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error });

/**
 * A whole number typed in a text or number field (an optional sign and digits: `parseWholeNumber`), from
 * `min` to `max`; empty is null.
 */
export const optionalInteger = (min: number, max: number, error: string) =>
  z
    .string({ error })
    .max(16, { error })
    .transform((value, context) => {
      if (value === "") return null;
      const number = parseWholeNumber(value, min, max);
      if (number === undefined) {
        context.addIssue({ code: "custom", message: error });
        return z.NEVER;
      }
      return number;
    });

/** A whole number from `min` to `max` that must be given. */
export const requiredInteger = (min: number, max: number, error: string) =>
  optionalInteger(min, max, error)
    .refine((value) => value !== null, { error })
    .transform(Number);

/** Markdown with Windows line ends made Unix ones, at most `maxBytes` bytes of UTF-8. */
export const markdownText = (maxBytes: number, error: string) =>
  z
    .string({ error })
    .transform(normalisedText)
    .refine((text) => new TextEncoder().encode(text).length <= maxBytes, { error });

/** The digest a form carries of what it opened (`digestOf`, features/audit/digest.server.ts): 43 base64url. */
export const digestField = z
  .string({ error: "admin.site.errors.base" })
  .regex(/^[\w-]{43}$/, { error: "admin.site.errors.base" });

/** An image the site serves (an upload, or content's own /media/…) or an https address, as content allows. */
export const artworkUrl = /^(\/media\/[\w./-]{1,400}|https:\/\/[^\s"'<>]{1,400})$/;
