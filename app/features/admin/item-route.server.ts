import { data, redirect } from "react-router";
import { refreshContentRevision } from "~/features/site/revision.server";
import { echoedValue } from "~/lib/forms";
import type { DigestFormResult } from "./digest-form";

/**
 * An item page's `intent=delete` (a wiki page, a goal; the form is `DeleteForm`): refused with `confirm` (a
 * message key) unless the box is ticked; `remove` deletes the row and answers its title, or nothing when
 * there was none (404). The pages follow at once (the content revision moves), and the author lands on the
 * list told what went.
 */
export async function deleteIntent(
  id: number | undefined,
  form: FormData,
  {
    confirm,
    remove,
    list,
  }: { confirm: string; remove: (id: number) => Promise<string | undefined>; list: string },
) {
  if (id === undefined) throw data(null, { status: 404 });
  if (form.get("confirm") !== "on") return data<DigestFormResult>({ errors: { confirm } }, 400);
  const title = await remove(id);
  if (title === undefined) throw data(null, { status: 404 });
  await refreshContentRevision();
  return redirect(`${list}?deleted=${encodeURIComponent(title)}`);
}

/**
 * An item form's answers: what was typed (each field capped as `echoedValue` does, `long` at `longMax`) kept
 * in a refusal (field errors, 400 unless told) or a conflict (409), and the item's page after a save (the
 * pages follow at once: the content revision moves).
 */
export function itemAnswers(form: FormData, fields: readonly string[], long: { field: string; max: number }) {
  const values = Object.fromEntries(
    fields.map((field) => [field, echoedValue(form, field, field === long.field ? long.max : 500)]),
  );
  return {
    refuse: (errors: Record<string, string>, status = 400) =>
      data<DigestFormResult>({ errors, values }, status),
    conflict: () => data<DigestFormResult>({ conflict: true, values }, 409),
    saved: async (page: string) => {
      await refreshContentRevision();
      return redirect(`${page}?saved=1`);
    },
  };
}
