import { readForm } from "~/lib/forms";
import "~/i18n/full-catalogue";
import { Form, useNavigation } from "react-router";
import { requestPasswordReset } from "~/features/auth/commands.server";
import { EmailField, FailureAlert } from "~/features/auth/fields";
import { type FormFailure, formFailure, throttledFailure } from "~/features/auth/responses.server";
import { forgotPasswordSchema, parseForm } from "~/features/auth/schemas";
import { consume, rules, Throttled } from "~/features/auth/throttle.server";
import { localOutboxAvailable } from "~/features/mail/outbox.server";
import { LocalOutboxNote } from "~/features/mail/outbox-note";
import { getSiteSettings } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
import { getEnv } from "~/lib/env.server";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/forgot-password";

export function loader({ context }: Route.LoaderArgs) {
  return { localOutbox: localOutboxAvailable(context) };
}

/** A refusal's Retry-After reaches the browser on the document response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(forgotPasswordSchema, await readForm(request));
  if (!parsed.ok) return formFailure({ errors: parsed.errors });
  try {
    await consume(`reset:ip:${context.ip}`, rules.resetIp, context);
  } catch (error) {
    if (error instanceof Throttled) return throttledFailure(error);
    throw error;
  }
  const site = await getSiteSettings();
  const options = { origin: getEnv().origin, language: getPreferences(request).language, site: site.title };
  const meta = { requestId: context.requestId, ip: context.ip };
  // The same answer, in the same time, whether or not the e-mail has an account: the lookup, the token and
  // the e-mail come after it (ADR 16).
  context.afterResponse(() => requestPasswordReset(parsed.data.email, options, meta));
  return { sent: true as const };
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle";
  const failure = actionData && "sent" in actionData ? undefined : (actionData as FormFailure | undefined);
  const { errors, onSubmit } = useFormValidation(forgotPasswordSchema, failure?.errors);
  return (
    <div className="mx-auto max-w-lg px-4 py-14 sm:px-6">
      <DocumentTitle name={t("auth.forgot.title")} />
      <h1 className="font-display text-3xl text-primary">{t("auth.forgot.title")}</h1>
      <p className="mt-2 text-muted">{t("auth.forgot.intro")}</p>
      {actionData && "sent" in actionData ? (
        <div className="mt-6">
          <FormNotice>{t("auth.forgot.sent")}</FormNotice>
          {loaderData.localOutbox ? <LocalOutboxNote /> : null}
        </div>
      ) : (
        <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
          <FailureAlert failure={failure} />
          <EmailField error={errors.email} />
          <button type="submit" className={buttonClass("primary")} disabled={submitting}>
            {t("auth.forgot.submit")}
          </button>
        </Form>
      )}
      <p className="mt-6">
        <Link to="/login" className="text-primary underline underline-offset-2">
          {t("auth.forgot.back")}
        </Link>
      </p>
    </div>
  );
}
