import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { readStateCookie, stateCookie } from "~/features/auth/oauth.server";
import { discordConfig } from "~/features/discord/config.server";
import { completeLink } from "~/features/discord/link.server";
import { callbackSchema } from "~/features/discord/schemas";
import type { Route } from "./+types/settings-discord-callback";
import { backToSection } from "./settings-discord";

/** GET /settings/discord/callback: Discord sends the reader back with a code (or an error) to link. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!discordConfig()) throw data(null, { status: 404 });
  const query = callbackSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const outcome = query.success
    ? await completeLink(user.id, { ...query.data, browserState: readStateCookie(request) })
    : "invalid";
  return redirect(backToSection(outcome), { headers: { "Set-Cookie": stateCookie(null) } });
}

/**
 * Never shown (the loader always redirects); a page of its own lets a refusal (Discord not configured) render
 * the site's ordinary, translated 404 rather than a bare one.
 */
export default function DiscordCallback() {
  return null;
}
