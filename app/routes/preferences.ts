import { data, redirect } from "react-router";
import { z } from "zod";
import { getSessionUser } from "~/features/auth/session.server";
import { saveLanguage } from "~/features/settings/queries.server";
import { type Language, languages } from "~/i18n/config";
import { localizedPath } from "~/i18n/urls";
import { getEnv } from "~/lib/env.server";
import { readForm } from "~/lib/forms";
import { preferenceCookie } from "~/lib/preferences.server";
import { refererPath, safeRedirectPath } from "~/lib/redirect";
import type { Route } from "./+types/preferences";

const schema = z.object({
  lang: z.enum(languages).optional(),
  /** "system" forgets the choice: the page follows the system setting again. */
  theme: z.enum(["light", "dark", "system"]).optional(),
  redirectTo: z.string().optional(),
});

/**
 * Saves the language or theme choice in a cookie (a signed-in reader's language on the account too), then
 * goes back to the page it came from (in the chosen language's URL when a language was chosen): `redirectTo` if
 * the form names one, else the page that sent it (`Referer`; the site's Referrer-Policy sends the path to
 * its own pages), else the home page.
 */
export async function action({ request }: Route.ActionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success || (!parsed.data.lang && !parsed.data.theme)) {
    throw data({ message: "Unknown preference" }, { status: 400 });
  }
  const secure = getEnv().origin.startsWith("https:");
  const headers = new Headers();
  if (parsed.data.lang) headers.append("Set-Cookie", preferenceCookie("lang", parsed.data.lang, secure));
  if (parsed.data.theme)
    headers.append(
      "Set-Cookie",
      parsed.data.theme === "system"
        ? preferenceCookie("theme", "", secure, 0)
        : preferenceCookie("theme", parsed.data.theme, secure),
    );
  // The account's language is the one its e-mails are written in.
  const user = parsed.data.lang ? await getSessionUser(request) : undefined;
  if (user && parsed.data.lang) await saveLanguage(user.id, parsed.data.lang);
  const back = safeRedirectPath(parsed.data.redirectTo ?? refererPath(request));
  return redirect(parsed.data.lang ? inLanguage(back, parsed.data.lang) : back, { headers });
}

/**
 * The page a language was chosen on, at that language's URL (ADR 87): `/es/chapter/2?x=1` → `/fr/chapter/2?x=1`.
 * A chapter opens at the reader's place by itself: places are kept per chapter, whatever the language.
 */
function inLanguage(path: string, language: Language): string {
  const url = new URL(path, "http://site.invalid");
  return `${localizedPath(language, url.pathname)}${url.search}${url.hash}`;
}

export function loader() {
  return redirect("/");
}
