import "~/i18n/full-catalogue";
import { Form, redirect, useNavigation, useRouteLoaderData } from "react-router";
import { FieldError, registerAccount } from "~/features/auth/commands.server";
import { sendWelcomeMail } from "~/features/auth/email-confirmation.server";
import { EmailField, FailureAlert, NewPasswordFields } from "~/features/auth/fields";
import { requireAnonymous } from "~/features/auth/guards.server";
import { listConfiguredProviders } from "~/features/auth/oauth-providers.server";
import { type FormFailure, formFailure, throttledFailure } from "~/features/auth/responses.server";
import { parseForm, registerSchema } from "~/features/auth/schemas";
import { signIn } from "~/features/auth/session.server";
import { SocialButtons } from "~/features/auth/social-buttons";
import { consume, rules, Throttled } from "~/features/auth/throttle.server";
import { WELCOME_COINS } from "~/features/coins/constants";
import { getSiteSettings } from "~/features/site/queries.server";
import { rememberDevice } from "~/features/two-factor/devices.server";
import { Trans, useTranslation } from "~/i18n/react";
import { getEnv } from "~/lib/env.server";
import { echoedValue, readForm } from "~/lib/forms";
import { logger } from "~/lib/logger.server";
import { getPreferences } from "~/lib/preferences.server";
import { safeRedirectPath, withRedirect } from "~/lib/redirect";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Checkbox, Field, FormAlert, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/register";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  // Where to go once signed in: the welcome page, or the page that sent the visitor here (/checkout).
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/welcome");
  return { providers: listConfiguredProviders(), redirectTo };
}

/** A refusal's Retry-After reaches the browser on the document response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

/**
 * Registration signs the new reader in and goes on to /welcome (ADR 56, superseding part of ADR 16). Every
 * attempt counts against the IP's sign-up limit first, which also bounds what "this e-mail already has an
 * account" tells. A taken username or address is refused before any hashing; a new account costs one argon2
 * hash, and its welcome e-mail (which confirms the address) is sent after the answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = { username: echoedValue(form, "username"), email: echoedValue(form, "email") };
  const parsed = parseForm(registerSchema, form);
  if (!parsed.ok) return formFailure({ errors: parsed.errors, values });
  const language = getPreferences(request).language;
  const meta = { requestId: context.requestId, ip: context.ip };
  try {
    await consume(`signup:ip:${context.ip}`, rules.signupIp, context);
    const { username, email, password } = parsed.data;
    const { userId, token } = await registerAccount({ username, email, password, language }, meta);
    const mailing = { origin: getEnv().origin, site: (await getSiteSettings()).title, language };
    context.afterResponse(() => sendWelcomeMail({ email, username }, token, mailing));
    const cookies = await signIn(request, userId, { remember: false, meta: context, method: "registration" });
    // The browser it registered on is known to the new account (ADR 65).
    cookies.push(await rememberDevice(request, userId));
    return redirect(safeRedirectPath(parsed.data.redirectTo, "/welcome"), {
      headers: cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
    });
  } catch (error) {
    if (error instanceof Throttled) return throttledFailure(error);
    if (error instanceof FieldError) {
      if (error.field === "email")
        logger.info({ event: "registration.existing-email", ...meta }, "e-mail taken");
      return formFailure({ errors: { [error.field]: error.messageKey }, values });
    }
    logger.error({ err: error, requestId: context.requestId }, "registration failed");
    return formFailure({ formError: "auth.registrationFailed", values }, 503);
  }
}

/** The address already has an account: say so, with the ways back into it. */
function AccountExists({ redirectTo }: { redirectTo: string }) {
  return (
    <FormAlert>
      <Trans
        i18nKey="auth.register.accountExists"
        components={{
          login: (
            <Link
              to={withRedirect("/login", redirectTo, "/welcome")}
              className="font-semibold underline underline-offset-2"
            />
          ),
          reset: <Link to="/forgot-password" className="font-semibold underline underline-offset-2" />,
        }}
      />
    </FormAlert>
  );
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as { site?: { title: string } } | undefined;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/register") === true;
  const failure = actionData as FormFailure | undefined;
  const { errors, onSubmit } = useFormValidation(registerSchema, failure?.errors);
  const emailTaken = failure?.errors?.email === "validation.emailTaken";
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_20rem]">
      <DocumentTitle name={t("auth.register.title", { site: root?.site?.title ?? "" })} />
      <section
        aria-labelledby="register-title"
        className="rounded-xl border border-line bg-[color:var(--surface)] p-6 sm:p-8"
      >
        <h1 id="register-title" className="font-display text-3xl text-primary">
          {t("auth.register.title", { site: root?.site?.title ?? "" })}
        </h1>
        <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
          <FailureAlert failure={failure} />
          {emailTaken ? <AccountExists redirectTo={loaderData.redirectTo} /> : null}
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Field
            name="username"
            label={t("auth.fields.username")}
            autoComplete="username"
            required
            defaultValue={failure?.values?.username}
            error={errors.username}
          />
          <EmailField defaultValue={failure?.values?.email} error={errors.email} />
          <NewPasswordFields errors={errors} label={t("auth.fields.password")} />

          <Checkbox
            name="acceptTerms"
            error={errors.acceptTerms}
            label={
              <Trans
                i18nKey="auth.register.acceptTerms"
                components={{
                  terms: <Link to="/terms" className="text-primary underline underline-offset-2" />,
                  privacy: <Link to="/privacy" className="text-primary underline underline-offset-2" />,
                }}
              />
            }
          />
          <button type="submit" className={buttonClass("primary")} disabled={submitting}>
            {submitting ? t("auth.register.submitting") : t("auth.register.submit")}
          </button>
        </Form>
        <SocialButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
        <p className="mt-6 text-center">
          {t("auth.register.haveAccount")}{" "}
          <Link
            to={withRedirect("/login", loaderData.redirectTo, "/welcome")}
            className="text-primary underline underline-offset-2"
          >
            {t("auth.register.loginLink")}
          </Link>
        </p>
      </section>
      <aside aria-labelledby="bonus" className="rounded-xl border border-primary p-6">
        <h2 id="bonus" className="font-display text-xl text-primary">
          {t("auth.register.bonusTitle")}
        </h2>
        <p className="mt-4">{t("auth.register.bonusText", { count: WELCOME_COINS })}</p>
      </aside>
    </div>
  );
}
