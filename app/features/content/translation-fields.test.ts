import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { translationKinds } from "#db/schema";
import { parseForm } from "~/lib/forms";
import {
  fieldsOfForm,
  formValuesOf,
  MAX_LIST_ITEMS,
  otherTranslationSchema,
  translatedFields,
} from "./translation-fields";
import { TRANSLATED_BODY_MAX, translationSchemas } from "./translation-schemas";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the admin's translation fields (ADR 98)", () => {
  it("name the fields an imported file holds, with its caps", () => {
    for (const kind of translationKinds) {
      if (kind === "goal") continue; // a goal's fields are one item of the fundraiser file's list
      const schema = translationSchemas[kind];
      const imported = Object.keys(schema.shape).filter((name) => name !== "originalDigest");
      expect(translatedFields[kind].map((field) => field.name).sort()).toEqual(imported.sort());
      for (const field of translatedFields[kind]) {
        const long = "x".repeat(field.max + 1);
        const value = field.shape === "lines" ? [long] : long;
        expect(schema.safeParse({ ...validOf(kind), [field.name]: value }).success).toBe(false);
      }
    }
    const goal = translationSchemas.fundraiser.shape.goals.element.shape;
    expect(Object.keys(goal).filter((name) => !["description", "originalDigest"].includes(name))).toEqual(
      translatedFields.goal.map((field) => field.name),
    );
  });

  it("reads a tier's perks one a line, and gives them back so", () => {
    const parsed = parseForm(
      otherTranslationSchema("tier"),
      form({ "field.name": " Archiviste ", "field.perks": "Un\r\n\n  Deux  \nTrois", body: "Texte" }),
    );
    expect(parsed).toEqual({
      ok: true,
      data: { "field.name": "Archiviste", "field.perks": ["Un", "Deux", "Trois"], body: "Texte" },
    });
    if (!parsed.ok) return;
    const fields = fieldsOfForm("tier", parsed.data);
    expect(fields).toEqual({ name: "Archiviste", perks: ["Un", "Deux", "Trois"] });
    expect(formValuesOf("tier", fields, "Texte")).toEqual({
      "field.name": "Archiviste",
      "field.perks": "Un\nDeux\nTrois",
      body: "Texte",
    });
  });

  it("refuses a missing field, a long one, too many perks and a long body, each with its message", () => {
    const errors = (kind: Parameters<typeof otherTranslationSchema>[0], fields: Record<string, string>) => {
      const parsed = parseForm(otherTranslationSchema(kind), form(fields));
      return parsed.ok ? {} : parsed.errors;
    };
    expect(errors("wiki", { "field.title": " ", "field.summary": "s", body: "" })).toEqual({
      "field.title": "admin.otherTranslation.errors.required",
    });
    expect(errors("wiki", { "field.title": "t", "field.summary": "s".repeat(501), body: "" })).toEqual({
      "field.summary": "admin.otherTranslation.errors.long",
    });
    const perks = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, index) => `p${index}`).join("\n");
    expect(errors("tier", { "field.name": "n", "field.perks": perks, body: "" })).toEqual({
      "field.perks": "admin.otherTranslation.errors.list",
    });
    expect(errors("coinPack", { body: "b".repeat(TRANSLATED_BODY_MAX + 1) })).toEqual({
      body: "admin.otherTranslation.errors.bodyLong",
    });
    expect(errors("coinPack", { body: "", savedAt: "yesterday" })).toEqual({
      savedAt: "admin.otherTranslation.errors.savedAt",
    });
    // The site's synopsis may be left empty (the page then shows the original's): it is not stored.
    const site = parseForm(
      otherTranslationSchema("site"),
      form({
        "field.title": "t",
        "field.tagline": "t",
        "field.synopsis": "  ",
        "field.location": "l",
        "field.role": "r",
        "field.socialLabel": "s",
        "field.communityLabel": "c",
        body: "",
      }),
    );
    expect(site.ok && fieldsOfForm("site", site.data)).not.toHaveProperty("synopsis");
  });

  it("answers any form of any kind with data or messages, never a throw (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...translationKinds),
        fc.dictionary(
          fc.constantFrom(
            "field.title",
            "field.name",
            "field.perks",
            "field.summary",
            "body",
            "savedAt",
            "x",
          ),
          fc.string({ maxLength: 400 }),
        ),
        (kind, fields) => {
          const parsed = parseForm(otherTranslationSchema(kind), form(fields));
          if (parsed.ok) {
            const stored = fieldsOfForm(kind, parsed.data);
            for (const field of translatedFields[kind]) {
              const value = stored[field.name];
              if (field.shape === "lines") expect(Array.isArray(value)).toBe(true);
              else if (value !== undefined) expect((value as string).length).toBeLessThanOrEqual(field.max);
            }
          } else expect(Object.values(parsed.errors).every((key) => key.startsWith("admin."))).toBe(true);
        },
      ),
    );
  });
});

/** A valid imported file's front matter of a kind: every field filled. */
function validOf(kind: Exclude<(typeof translationKinds)[number], "goal">) {
  return Object.fromEntries(
    translatedFields[kind].map((field) => [field.name, field.shape === "lines" ? ["p"] : "v"]),
  );
}
