import { z } from "zod";
import type { TranslationKind } from "#db/schema";
import { normalisedText } from "~/lib/form-fields";
import { TRANSLATED_BODY_MAX } from "./translation-schemas";

/**
 * The fields of each kind of content (other than chapters) a translation holds, as the admin's editor shows
 * them (ADR 98): named as the original's, capped as an imported translation file's are (`translationSchemas`:
 * a test holds the two together). `lines`: a list, one item a line (a tier's perks). Every kind also has a
 * Markdown body (a page's text, a product's description, a tier's pitch...).
 */
export type TranslatedField = {
  name: string;
  max: number;
  shape: "line" | "text" | "lines";
  optional?: boolean;
};

const title: TranslatedField = { name: "title", max: 200, shape: "line" };
const name: TranslatedField = { name: "name", max: 200, shape: "line" };

export const translatedFields: Record<TranslationKind, TranslatedField[]> = {
  site: [
    title,
    { name: "tagline", max: 300, shape: "line" },
    { name: "synopsis", max: 5_000, shape: "text", optional: true },
    { name: "location", max: 200, shape: "line" },
    { name: "role", max: 200, shape: "line" },
    { name: "socialLabel", max: 200, shape: "line" },
    { name: "communityLabel", max: 200, shape: "line" },
  ],
  legal: [title],
  volume: [title],
  wiki: [title, { name: "summary", max: 500, shape: "text" }],
  gallery: [title],
  product: [name],
  tier: [name, { name: "perks", max: 300, shape: "lines" }],
  coinPack: [],
  goal: [title],
};

/** The most items a list field holds (a tier's perks), as the import allows. */
export const MAX_LIST_ITEMS = 30;

const fieldError = (field: string) => `admin.otherTranslation.errors.${field}`;

/** One field's rule: a trimmed line or text within its cap (required unless optional), or a list of lines. */
function fieldSchema(field: TranslatedField) {
  if (field.shape === "lines")
    return z
      .string({ error: fieldError("list") })
      .max((field.max + 2) * MAX_LIST_ITEMS, { error: fieldError("long") })
      .transform((value) =>
        normalisedText(value)
          .split("\n")
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .refine((items) => items.length >= 1 && items.length <= MAX_LIST_ITEMS, { error: fieldError("list") })
      .refine((items) => items.every((item) => item.length <= field.max), { error: fieldError("long") });
  const text = z
    .string({ error: fieldError("required") })
    .transform((value) => normalisedText(value).trim())
    .refine((value) => value.length <= field.max, { error: fieldError("long") });
  return field.optional ? text : text.refine((value) => value.length > 0, { error: fieldError("required") });
}

/**
 * The editor's form for a kind (browser and action): its fields (a list as one line an item), the body, and
 * the moment the translation the editor opened was saved (none for one not made yet), so a save from an older
 * one is a conflict. A list's cap is on each item, their number and the whole text.
 */
export function otherTranslationSchema(kind: TranslationKind) {
  const fields = translatedFields[kind];
  return z.object({
    ...Object.fromEntries(fields.map((field) => [`field.${field.name}`, fieldSchema(field)])),
    body: z
      .string({ error: fieldError("body") })
      .transform(normalisedText)
      .refine((text) => text.length <= TRANSLATED_BODY_MAX, { error: fieldError("bodyLong") }),
    savedAt: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, { error: fieldError("savedAt") })
      .optional(),
  });
}

/** The fields of a parsed form, named as a translation stores them (an optional one left empty is left out). */
export function fieldsOfForm(kind: TranslationKind, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    translatedFields[kind].flatMap((field) => {
      const value = data[`field.${field.name}`];
      return value === "" || value === undefined ? [] : [[field.name, value]];
    }),
  );
}

/** A field's value as the editor's input holds it: a list one item a line, anything else as text. */
export function formValueOf(value: unknown): string {
  if (Array.isArray(value)) return value.filter((item) => typeof item === "string").join("\n");
  return typeof value === "string" ? value : "";
}

/** The admin's editor of one original's translation (its key, which may hold a slash, in the query). */
export const editorPath = (kind: TranslationKind, key: string, language: string) =>
  `/admin/translations/${kind}/${language}?key=${encodeURIComponent(key)}`;

/** A translation's fields and body as the editor's inputs hold them, by input name. */
export function formValuesOf(
  kind: TranslationKind,
  fields: Record<string, unknown>,
  body: string,
): Record<string, string> {
  return {
    ...Object.fromEntries(
      translatedFields[kind].map((field) => [`field.${field.name}`, formValueOf(fields[field.name])]),
    ),
    body,
  };
}
