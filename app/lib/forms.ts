import type { z } from "zod";

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
