import { getSessionUser } from "~/features/auth/session.server";
import { newChapterEmailsOn } from "~/features/release-mails/subscription.server";
import type { Route } from "./+types/notify-state";

/**
 * The signed-in reader's release e-mail choice, for "Notify me" on a page shared by the readers waiting for a
 * chapter (ADR 50): the page cannot carry it, so the button asks. Never kept by any cache; 401 for a visitor.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const headers = { "Cache-Control": "private, no-store" };
  const user = await getSessionUser(request);
  if (!user) return Response.json({ on: null }, { status: 401, headers });
  return Response.json({ on: await newChapterEmailsOn(user.id) }, { headers });
}
