import { requireUserForApi } from "~/features/auth/guards.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { passkeyRegistrationOptions } from "~/features/two-factor/factors.server";
import type { Route } from "./+types/settings-passkey";

/** POST /settings/security/passkey: the WebAuthn options to make a passkey for the signed-in account (ADR 65). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserForApi(request);
  return Response.json(await passkeyRegistrationOptions(user, (await getSiteSettings()).title));
}
