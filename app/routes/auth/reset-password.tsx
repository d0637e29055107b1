import { readForm } from "~/lib/forms";
import "~/i18n/full-catalogue";
import { Form, redirect, useNavigation } from "react-router";
import { isResetTokenValid, resetPassword } from "~/features/auth/commands.server";
import { NewPasswordFields } from "~/features/auth/fields";
import { type FormFailure, formFailure } from "~/features/auth/responses.server";
import { parseForm, resetPasswordSchema } from "~/features/auth/schemas";
import { getSiteSettings } from "~/features/site/queries.server";
import { continueSignIn } from "~/features/two-factor/challenge.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/reset-password";

/** GET only shows the form; only the POST consumes the token (docs/security-model.md S4). */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: token.length > 0 && (await isResetTokenValid(token)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(resetPasswordSchema, await readForm(request));
  if (!parsed.ok) return formFailure({ errors: parsed.errors });
  const userId = await resetPassword(parsed.data.token, parsed.data.password, context);
  if (userId === undefined) return formFailure({ formError: "auth.reset.invalid" });
  // A reset proves the mailbox, not a second factor: an account with one is asked for it (ADR 65).
  const outcome = await continueSignIn(
    request,
    { userId, method: "reset", remember: false, redirectTo: "/account" },
    { requestId: context.requestId, ip: context.ip },
    { site: (await getSiteSettings()).title, language: getPreferences(request).language },
  );
  return redirect(outcome.location, {
    headers: outcome.cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const failure = actionData as FormFailure | undefined;
  const { errors, onSubmit } = useFormValidation(resetPasswordSchema, failure?.errors);
  return (
    <div className="mx-auto max-w-lg px-4 py-14 sm:px-6">
      <DocumentTitle name={t("auth.reset.title")} />
      <h1 className="font-display text-3xl text-primary">{t("auth.reset.title")}</h1>
      {loaderData.valid ? (
        <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
          {failure?.formError ? <FormAlert>{t(failure.formError)}</FormAlert> : null}
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields errors={errors} label={t("auth.fields.newPassword")} />

          <button type="submit" className={buttonClass("primary")} disabled={navigation.state !== "idle"}>
            {t("auth.reset.submit")}
          </button>
        </Form>
      ) : (
        <div className="mt-6 flex flex-col gap-4">
          <FormAlert>{t("auth.reset.invalid")}</FormAlert>
          <Link to="/forgot-password" className="text-primary underline underline-offset-2">
            {t("auth.reset.again")}
          </Link>
        </div>
      )}
    </div>
  );
}
