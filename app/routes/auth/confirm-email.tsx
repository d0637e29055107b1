import "~/i18n/full-catalogue";
import { Form, useNavigation } from "react-router";
import {
  confirmEmail,
  renewConfirmation,
  sendConfirmationMail,
} from "~/features/auth/email-confirmation.server";
import { FailureAlert } from "~/features/auth/fields";
import { type FormFailure, formFailure, throttledFailure } from "~/features/auth/responses.server";
import { confirmEmailSchema, parseForm } from "~/features/auth/schemas";
import { forgetKeptSessions, getSessionUser } from "~/features/auth/session.server";
import { consume, rules, Throttled } from "~/features/auth/throttle.server";
import { localOutboxAvailable } from "~/features/mail/outbox.server";
import { LocalOutboxNote } from "~/features/mail/outbox-note";
import { getSiteSettings } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
import { getEnv } from "~/lib/env.server";
import { readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/confirm-email";

/**
 * The confirmation e-mail's link opens this page, whose button confirms (ADR 56): a GET changes nothing, so a
 * mail program that fetches links does not confirm for the reader. Without a token, a signed-in reader whose
 * address waits for confirmation sees where the e-mail went and may ask for a new one.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token")?.slice(0, 200) ?? "";
  const user = await getSessionUser(request);
  return {
    token,
    account: user && { email: user.email, confirmed: user.emailConfirmed },
    localOutbox: localOutboxAvailable(context),
  };
}

/** A refusal's Retry-After reaches the browser on the document response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(confirmEmailSchema, await readForm(request));
  if (!parsed.ok) return formFailure({ formError: "auth.confirm.invalid" });
  if (parsed.data.intent === "confirm") {
    const userId = await confirmEmail(parsed.data.token, context);
    if (userId === undefined) return formFailure({ formError: "auth.confirm.invalid" });
    // The banner goes at once on this instance (others learn it from the account's row event).
    forgetKeptSessions(userId);
    return { done: "confirmed" as const };
  }
  const user = await getSessionUser(request);
  if (!user) return formFailure({ formError: "auth.confirm.signInToResend" }, 401);
  try {
    await consume(`confirm-mail:user:${user.id}`, rules.confirmationMail, context);
  } catch (error) {
    if (error instanceof Throttled) return throttledFailure(error);
    throw error;
  }
  const renewed = await renewConfirmation(user.id);
  if (!renewed) return { done: "confirmed" as const };
  const mailing = {
    origin: getEnv().origin,
    site: (await getSiteSettings()).title,
    language: getPreferences(request).language,
  };
  context.afterResponse(() => sendConfirmationMail(renewed, renewed.token, mailing));
  return { done: "sent" as const };
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const failure = done ? undefined : (actionData as FormFailure | undefined);
  const { token, account } = loaderData;
  const confirmed = done === "confirmed" || (!token && account?.confirmed);
  return (
    <div className="mx-auto max-w-lg px-4 py-14 sm:px-6">
      <DocumentTitle name={t("auth.confirm.title")} />
      <h1 className="font-display text-3xl text-primary">{t("auth.confirm.title")}</h1>
      <div className="mt-6 flex flex-col gap-4">
        <FailureAlert failure={failure} />
        {confirmed ? (
          <>
            <FormNotice>{t("auth.confirm.done")}</FormNotice>
            <p>
              <Link to={account ? "/account" : "/login"} className={buttonClass("primary")}>
                {account ? t("auth.welcome.dashboard") : t("auth.register.loginLink")}
              </Link>
            </p>
          </>
        ) : token ? (
          <Form method="post" className="flex flex-col gap-4">
            <p>{t("auth.confirm.intro")}</p>
            <input type="hidden" name="token" value={token} />
            <button
              type="submit"
              name="intent"
              value="confirm"
              className={buttonClass("primary")}
              disabled={busy}
            >
              {t("auth.confirm.submit")}
            </button>
          </Form>
        ) : account ? (
          <Form method="post" className="flex flex-col gap-4">
            {done === "sent" ? (
              <FormNotice>{t("auth.confirm.sent", { email: account.email })}</FormNotice>
            ) : null}
            <p>{t("auth.confirm.pending", { email: account.email })}</p>
            <p>{t("auth.confirm.until")}</p>
            <button
              type="submit"
              name="intent"
              value="resend"
              className={buttonClass("outline")}
              disabled={busy}
            >
              {t("auth.confirm.resend")}
            </button>
          </Form>
        ) : (
          <FormAlert>{t("auth.confirm.invalid")}</FormAlert>
        )}
        {loaderData.localOutbox && account && !confirmed ? <LocalOutboxNote /> : null}
      </div>
    </div>
  );
}
