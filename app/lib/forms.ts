import { data } from "react-router";
import { z } from "zod";
import { parseWholeNumber } from "./parse";

export type FieldErrors = Record<string, string>;

/** Field name -> first message key, for a form to show beside each field. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Parses form data with a schema: the data, or the field errors. Used by the browser and by actions. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  form: FormData,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const values = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  const result = schema.safeParse(values);
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: fieldErrors(result.error) };
}

/**
 * A field's text as sent, to show again in the form after a refusal: capped, so a 10 MB field is not
 * echoed back as a 20 MB page (ADR 15). Longer than any valid value, so a near miss is shown whole.
 */
export function echoedValue(form: FormData, name: string, max = 300): string {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, max) : "";
}

/**
 * The request's form. A body that is not one (another content type, a broken multipart body) is the client's
 * mistake, answered 400, never a 500: every action reads its form here.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ error: "not-a-form" }, { status: 400 });
  }
}

/**
 * A whole number field (a form's or a query string's): the one rule of `parseWholeNumber`, an optional sign
 * and digits from `min` to `max`, refused with `error` (a catalogue key) otherwise.
 */
export const wholeNumber = (min: number, max: number, error = "common.wholeNumber") =>
  z.union([z.string(), z.number()], { error }).transform((value, context) => {
    const number = parseWholeNumber(value, min, max);
    if (number === undefined) {
      context.addIssue({ code: "custom", message: error });
      return z.NEVER;
    }
    return number;
  });
