import { data, redirect } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { stateCookie } from "~/features/auth/oauth.server";
import { discordConfig } from "~/features/discord/config.server";
import { startLink, unlink } from "~/features/discord/link.server";
import { discordFormSchema } from "~/features/discord/schemas";
import { readForm } from "~/lib/forms";
import type { Route } from "./+types/settings-discord";

export const backToSection = (outcome: string) => `/settings?discord=${outcome}#discord`;

/**
 * POST /settings/discord (ADR 84): `link` sends the reader to Discord's authorize page (the state also in the
 * browser's cookie, as social sign-in does); `unlink` takes the role back and forgets the link.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const config = discordConfig();
  if (!config) throw data(null, { status: 404 });
  const parsed = discordFormSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return redirect(backToSection("invalid"));
  if (parsed.data.intent === "unlink") {
    const outcome = await unlink(user.id);
    return redirect(backToSection(outcome === "done" ? "unlinked" : outcome));
  }
  const url = await startLink(config, user.id);
  return redirect(url, {
    headers: { "Set-Cookie": stateCookie(new URL(url).searchParams.get("state")) },
  });
}

export function loader() {
  return redirect("/settings#discord");
}
