import { currentChallenge, passkeyOptionsFor } from "~/features/two-factor/challenge.server";
import type { Route } from "./+types/login-verify-passkey";

/** POST /login/verify/passkey: the WebAuthn options for the waiting sign-in's passkey (ADR 65), as JSON. */
export async function action({ request }: Route.ActionArgs) {
  const challenge = await currentChallenge(request);
  if (!challenge) return Response.json({ error: "no-sign-in" }, { status: 401 });
  return Response.json(await passkeyOptionsFor(challenge));
}
