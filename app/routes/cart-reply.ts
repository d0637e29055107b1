import { getSessionUser } from "~/features/auth/session.server";
import { answerCartForm } from "~/features/cart/commands.server";
import type { Route } from "./+types/cart-reply";

/**
 * POST /cart/reply: the cart form sent by script (ADR 24). The same change as POST /cart, answered as JSON
 * (a CartReply) so the page stays where it is; a plain fetch, so the chapter page's script does not carry
 * React Router's fetcher.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const { reply, status, headers } = await answerCartForm(request, user?.id);
  return Response.json(reply, { status, headers });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
