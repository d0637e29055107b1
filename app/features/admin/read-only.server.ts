import { data } from "react-router";
import { requireAuthor } from "~/features/auth/guards.server";

/**
 * The action of an admin page that has no form: an author is told the method is not allowed (405); anyone
 * else gets the same 404 as for a page that does not exist, so a POST does not reveal the admin either.
 */
export async function readOnlyPage(request: Request): Promise<never> {
  await requireAuthor(request);
  throw data(null, { status: 405 });
}
