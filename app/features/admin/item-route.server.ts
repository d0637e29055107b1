import { data, redirect } from "react-router";
import { refreshContentRevision } from "~/features/site/revision.server";
import type { DigestFormResult } from "./digest-form";

/**
 * The id in an admin address that may name a row (`/admin/<kind>/:id`): undefined on the "new" route, which
 * has none; a number that is no row's id (not a positive 32-bit integer) is the ordinary 404.
 */
export function rowIdParam(params: { id?: string }): number | undefined {
  if (params.id === undefined) return undefined;
  const id = Number(params.id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw data(null, { status: 404 });
  return id;
}

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
