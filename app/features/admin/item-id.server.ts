import { data } from "react-router";
import { parseId } from "~/lib/parse";

/**
 * The id of an admin page's item from its route: none for `…/new` (no `:id`), else a whole number that a
 * row can have, anything else the site's 404 (chapters, wiki pages, products).
 */
export function adminItemId(params: { id?: string }): number | undefined {
  if (params.id === undefined) return undefined;
  const id = parseId(params.id);
  if (id === undefined) throw data(null, { status: 404 });
  return id;
}
