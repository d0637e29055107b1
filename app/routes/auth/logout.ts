import { redirect } from "react-router";
import { destroySession } from "~/features/auth/session.server";
import type { Route } from "./+types/logout";

/** Ends the session on the server and goes home. */
export async function action({ request, context }: Route.ActionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await destroySession(request, context) } });
}

export function loader() {
  return redirect("/");
}
