import "~/i18n/full-catalogue";
import { Form, redirect, useNavigation } from "react-router";
import { authenticate } from "~/features/auth/commands.server";
import { EmailField, FailureAlert } from "~/features/auth/fields";
import { requireAnonymous } from "~/features/auth/guards.server";
import { listConfiguredProviders } from "~/features/auth/oauth-providers.server";
import { type FormFailure, formFailure, throttledFailure } from "~/features/auth/responses.server";
import { loginSchema, parseForm } from "~/features/auth/schemas";
import { SocialButtons } from "~/features/auth/social-buttons";
import {
  assertMayTryPassword,
  countWrongPassword,
  forgetWrongPasswords,
  Throttled,
} from "~/features/auth/throttle.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { continueSignIn } from "~/features/two-factor/challenge.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, readForm } from "~/lib/forms";
import { logger } from "~/lib/logger.server";
import { getPreferences } from "~/lib/preferences.server";
import { safeRedirectPath, withRedirect } from "~/lib/redirect";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Checkbox, Field, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/login";

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/account");
  await requireAnonymous(request, redirectTo);
  return { redirectTo, providers: listConfiguredProviders() };
}

/** A refusal's Retry-After reaches the browser on the document response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(loginSchema, form);
  const email = echoedValue(form, "email");
  if (!parsed.ok) return formFailure({ errors: parsed.errors, values: { email } });
  try {
    await assertMayTryPassword(parsed.data.email, context);
  } catch (error) {
    if (error instanceof Throttled) return throttledFailure(error);
    throw error;
  }
  const user = await authenticate(parsed.data.email, parsed.data.password);
  if (!user) {
    await countWrongPassword(parsed.data.email, context);
    logger.warn({ event: "sign-in.failed", requestId: context.requestId, ip: context.ip }, "sign-in failed");
    return formFailure({ formError: "auth.invalidCredentials", values: { email } }, 401);
  }
  if (user.suspended) {
    logger.warn(
      { event: "sign-in.suspended", requestId: context.requestId, userId: user.id },
      "sign-in refused",
    );
    return formFailure({ formError: "auth.suspended", values: { email } }, 403);
  }
  await forgetWrongPasswords(parsed.data.email, context);
  // Signed in now, or on to the second step (/login/verify) when the account has a factor, or is an author's
  // on a browser it was never used on (ADR 65).
  const outcome = await continueSignIn(
    request,
    {
      userId: user.id,
      method: "password",
      remember: parsed.data.remember,
      redirectTo: safeRedirectPath(parsed.data.redirectTo, "/account"),
    },
    { requestId: context.requestId, ip: context.ip },
    { site: (await getSiteSettings()).title, language: getPreferences(request).language },
  );
  return redirect(outcome.location, {
    headers: outcome.cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/login") === true;
  const failure = actionData as FormFailure | undefined;
  const { errors, onSubmit } = useFormValidation(loginSchema, failure?.errors);
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_20rem]">
      <DocumentTitle name={t("auth.login.title")} />
      <section
        aria-labelledby="login-title"
        className="rounded-xl border border-line bg-[color:var(--surface)] p-6 sm:p-8"
      >
        <h1 id="login-title" className="font-display text-3xl text-primary">
          {t("auth.login.title")}
        </h1>
        <p className="mt-2 text-muted">{t("auth.login.subtitle")}</p>
        <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
          <FailureAlert failure={failure} />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <EmailField defaultValue={failure?.values?.email} error={errors.email} />
          <Field
            name="password"
            type="password"
            label={t("auth.fields.password")}
            autoComplete="current-password"
            required
            error={errors.password}
          />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Checkbox name="remember" label={t("auth.login.remember")} />
            <Link to="/forgot-password" className="text-primary underline underline-offset-2">
              {t("auth.login.forgot")}
            </Link>
          </div>
          <button type="submit" className={buttonClass("primary")} disabled={submitting}>
            {submitting ? t("auth.login.submitting") : t("auth.login.submit")}
          </button>
        </Form>
        <SocialButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
        <p className="mt-6 text-center">
          {t("auth.login.noAccount")}{" "}
          <Link
            to={withRedirect("/register", loaderData.redirectTo, "/account")}
            className="text-primary underline underline-offset-2"
          >
            {t("auth.login.registerLink")}
          </Link>
        </p>
      </section>
      <aside aria-labelledby="benefits" className="rounded-xl border border-primary p-6">
        <h2 id="benefits" className="font-display text-xl text-primary">
          {t("auth.benefits.title")}
        </h2>
        <ul className="mt-4 flex list-disc flex-col gap-2 pl-5">
          <li>{t("auth.benefits.free")}</li>
          <li>{t("auth.benefits.coins", { count: 3 })}</li>
          <li>{t("auth.benefits.progress")}</li>
          <li>{t("auth.benefits.community")}</li>
        </ul>
      </aside>
    </div>
  );
}
