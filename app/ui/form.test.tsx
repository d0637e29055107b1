import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import { Checkbox, Field, SelectField, TextAreaField } from "./form";

const r = en.admin.reader;

/** The page's ids, each label's target, and the fields' own ids (in the order of the markup). */
function ids(html: string) {
  return {
    all: [...html.matchAll(/ id="([^"]*)"/g)].map(([, id]) => id),
    labelled: [...html.matchAll(/<label for="([^"]*)"/g)].map(([, id]) => id),
    fields: [...html.matchAll(/<(?:input|select|textarea)[^>]* id="([^"]*)"/g)].map(([, id]) => id),
  };
}

describe("form fields' ids", () => {
  it("differ between forms with a field of the same name, and each label points at its own field", () => {
    // /admin/readers/N: three forms each with a "note"; /settings: three each asking for the current password.
    const html = renderToString(
      <main>
        {["coins", "suspension", "membership"].map((form) => (
          <form key={form}>
            <Field name="note" label={r.note} hint={r.noteHint} error="errors.required" />
            <TextAreaField name="details" label={r.records} />
            <SelectField name="tier" label={r.tier}>
              <option>{en.tiers.observer}</option>
            </SelectField>
            <Checkbox name="confirm" label={r.confirmCoins} error="errors.required" />
          </form>
        ))}
      </main>,
    );
    const { all, labelled, fields } = ids(html);
    expect(fields).toHaveLength(12);
    expect(new Set(all).size).toBe(all.length);
    expect(labelled.toSorted()).toEqual(fields.toSorted());
    // Readable: the field's name stays in its id.
    expect(fields.filter((id) => id?.startsWith("field-note"))).toHaveLength(3);
    // The hint and the error are the field's own, named in its aria-describedby.
    const [first] = fields;
    expect(html).toContain(`aria-describedby="${first}-error ${first}-hint"`);
  });

  it("keep an id the form gives", () => {
    const { fields, labelled } = ids(
      renderToString(<Field name="name" label={en.tiers.observer} id="observer-name" />),
    );
    expect(fields).toEqual(["observer-name"]);
    expect(labelled).toEqual(["observer-name"]);
  });
});
