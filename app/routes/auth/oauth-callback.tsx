import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import {
  completeAuthorization,
  configuredProvider,
  readStateCookie,
  stateCookie,
} from "~/features/auth/oauth.server";
import { getSessionUser } from "~/features/auth/session.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { continueSignIn } from "~/features/two-factor/challenge.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { safeRedirectPath } from "~/lib/redirect";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/oauth-callback";

/** GET /auth/:provider/callback: where the provider sends the browser back with a code (or an error). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const provider = configuredProvider(params.provider);
  if (!provider) throw data(null, { status: 404 });
  const query = new URL(request.url).searchParams;
  const result = await completeAuthorization(provider.id, {
    code: query.get("code"),
    state: query.get("state"),
    error: query.get("error"),
    browserState: readStateCookie(request),
    language: getPreferences(request).language,
    meta: { ip: context.ip, requestId: context.requestId },
  });
  const headers = new Headers({ "Set-Cookie": stateCookie(null) });
  if (!result.ok) {
    return data(
      { provider: provider.id, error: result.error.messageKey },
      { status: result.error.status, headers },
    );
  }
  // Linking a provider to the signed-in account keeps its session; any other sign-in gets a new session id
  // and the presented one ends (signIn), once its second step is done when it needs one (ADR 65).
  const current = await getSessionUser(request);
  let location = safeRedirectPath(result.redirectTo, "/account");
  if (current?.id !== result.userId) {
    const outcome = await continueSignIn(
      request,
      { userId: result.userId, method: provider.id, remember: false, redirectTo: location },
      { requestId: context.requestId, ip: context.ip },
      { site: (await getSiteSettings()).title, language: getPreferences(request).language },
    );
    for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
    location = outcome.location;
  }
  throw redirect(location, { headers });
}

export default function OAuthCallback({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const provider = t(`oauth.providers.${loaderData.provider}`);
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-14 sm:px-6">
      <DocumentTitle name={t("oauth.callback.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("oauth.callback.title")}</h1>
      <FormAlert>{t(loaderData.error, { provider })}</FormAlert>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/login" className={buttonClass("primary")}>
          {t("oauth.callback.toLogin")}
        </Link>
        <Link to="/account" className={buttonClass("outline")}>
          {t("oauth.callback.toAccount")}
        </Link>
      </div>
    </div>
  );
}
