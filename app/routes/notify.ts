import { data, redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { setNewChapterEmails } from "~/features/release-mails/subscription.server";
import { readForm } from "~/lib/forms";
import { safeRedirectPath } from "~/lib/redirect";
import type { Route } from "./+types/notify";

/**
 * "Notify me" (ADR 45): turns the reader's release e-mails on or off (the /settings choice itself), then goes
 * back to the page the button was on. A visitor is sent to sign in, and comes back to that page.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/toc");
  const choice = form.get("notify");
  if (choice !== "on" && choice !== "off") throw data({ message: "Unknown choice" }, { status: 400 });
  const user = await getSessionUser(request);
  if (!user) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  await setNewChapterEmails(user.id, choice === "on");
  return redirect(back);
}

export function loader() {
  return redirect("/settings#emails");
}
