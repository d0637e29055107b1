import { data, redirect } from "react-router";
import type { z } from "zod";
import type { RowDeleteOutcome, RowSaveOutcome } from "~/features/audit/row-editing.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { echoedValue, parseForm } from "~/lib/forms";
import type { EditorResult } from "./digest-form";

/**
 * The action of an editor of one row (wiki page, gallery piece, coin pack), on its `/new` route (`id`
 * absent) and its own: `intent=delete` deletes it once confirmed (refused with the counts of what still
 * refers to it), anything else is the form, checked by `schema`, creating or saving from its digest. A save
 * goes to the row's page with `?saved=1`; a deletion to the list with `?deleted=<name>`; a refusal keeps what
 * was typed (each field capped by `echo`); an unknown row is the 404.
 */
export async function editorAction<Id extends string | number, S extends z.ZodType>(
  form: FormData,
  editor: {
    id: Id | undefined;
    schema: S;
    fields: readonly string[];
    /** The most characters of a field echoed back. */
    echo: (field: string) => number;
    /** The row's key (slug), given only when it is created, and its messages: missing, taken. */
    key: { field: string; of: (input: z.output<S>) => string | undefined; invalid: string; taken: string };
    confirmMessage: string;
    create: (input: z.output<S>) => Promise<RowSaveOutcome<Id>>;
    save: (id: Id, input: z.output<S>) => Promise<RowSaveOutcome<Id>>;
    remove: (id: Id) => Promise<RowDeleteOutcome>;
    /** The list's path, the row's path, and the name the list says was deleted. */
    listPath: string;
    rowPath: (id: Id) => string;
  },
) {
  const { id } = editor;
  if (form.get("intent") === "delete") {
    if (id === undefined) throw data(null, { status: 404 });
    if (form.get("confirm") !== "on")
      return data<EditorResult>({ errors: { confirm: editor.confirmMessage } }, 400);
    const deleted = await editor.remove(id);
    if (!deleted.ok && deleted.reason === "notFound") throw data(null, { status: 404 });
    if (!deleted.ok && deleted.reason === "inUse")
      return data<EditorResult>({ errors: { confirm: deleted.message }, inUse: deleted.counts }, 409);
    await refreshContentRevision();
    return redirect(`${editor.listPath}?deleted=${encodeURIComponent(deleted.ok ? deleted.name : "")}`);
  }
  const values = Object.fromEntries(
    editor.fields.map((field) => [field, echoedValue(form, field, editor.echo(field))]),
  );
  const refuse = (errors: Record<string, string>, status = 400) =>
    data<EditorResult>({ errors, values }, status);
  const parsed = parseForm(editor.schema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  if (id === undefined && !editor.key.of(parsed.data))
    return refuse({ [editor.key.field]: editor.key.invalid });
  const saved = id === undefined ? await editor.create(parsed.data) : await editor.save(id, parsed.data);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`${editor.rowPath(saved.id)}?saved=1`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "taken") return refuse({ [editor.key.field]: editor.key.taken }, 409);
  return data<EditorResult>({ conflict: true, values }, 409);
}
