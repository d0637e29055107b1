import { redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { continueReadingFor } from "~/features/reader/continue.server";
import type { Route } from "./+types/chapter-start";

/**
 * `/chapter` without a number: where the signed-in reader left off, else chapter 1. A visitor's progress
 * lives in their browser's storage only, so a visitor starts at the beginning.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const number = (user && (await continueReadingFor(user.id))) ?? 1;
  // The answer depends on the account: no shared cache keeps it.
  return redirect(`/chapter/${number}`, { headers: { "Cache-Control": "private, no-store" } });
}
