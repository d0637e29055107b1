import { data, redirect } from "react-router";
import { requireUserForApi } from "~/features/auth/guards.server";
import { saveReadingSettings } from "~/features/reader/queries.server";
import { parseSettings } from "~/features/reading-settings/settings";
import { readForm } from "~/lib/forms";
import { safeRedirectPath } from "~/lib/redirect";
import type { Route } from "./+types/settings";

/** Saves a signed-in reader's reading settings on the account (visitors keep theirs in browser storage). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserForApi(request);
  const form = await readForm(request);
  const settings = parseSettings(Object.fromEntries(form), user.readingSettings);
  if (!settings) return data({ error: "bad-settings" }, { status: 400 });
  await saveReadingSettings(user.id, settings);
  const back = form.get("redirectTo");
  return back ? redirect(safeRedirectPath(back)) : { saved: true };
}
