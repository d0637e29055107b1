import { data, redirect } from "react-router";
import { configuredProvider, startAuthorization, stateCookie } from "~/features/auth/oauth.server";
import { getSessionUser } from "~/features/auth/session.server";
import { readForm } from "~/lib/forms";
import type { Route } from "./+types/oauth-start";

/**
 * POST /auth/:provider starts a social sign-in (state changes only by POST). A signed-in reader starting it
 * links the provider to their account instead.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const provider = configuredProvider(params.provider);
  if (!provider) throw data(null, { status: 404 });
  const form = await readForm(request);
  const user = await getSessionUser(request);
  const url = await startAuthorization(provider.id, {
    redirectTo: String(form.get("redirectTo") ?? ""),
    linkUserId: user?.id,
  });
  return redirect(url, {
    status: 302,
    headers: { "Set-Cookie": stateCookie(new URL(url).searchParams.get("state")) },
  });
}

export function loader() {
  return redirect("/login");
}
