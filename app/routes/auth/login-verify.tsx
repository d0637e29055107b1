import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { FailureAlert } from "~/features/auth/fields";
import { type FormFailure, formFailure } from "~/features/auth/responses.server";
import { getSiteSettings } from "~/features/site/queries.server";
import {
  cancelChallenge,
  challengeChoices,
  completeSecondStep,
  currentChallenge,
  resendCode,
} from "~/features/two-factor/challenge.server";
import { PasskeyButton } from "~/features/two-factor/passkey-button";
import { verifySchema } from "~/features/two-factor/schemas";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormNotice } from "~/ui/form";
import type { Route } from "./+types/login-verify";

/** The sign-in's second step (ADR 65): only while the browser's sign-in waits for it; else back to /login. */
export async function loader({ request }: Route.LoaderArgs) {
  const challenge = await currentChallenge(request);
  if (!challenge) throw redirect("/login");
  return { choices: await challengeChoices(challenge) };
}

/** A refusal's Retry-After reaches the browser on the document response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

const redirectWith = (outcome: { location: string; cookies: string[] }) =>
  redirect(outcome.location, {
    headers: outcome.cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
  });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const challenge = await currentChallenge(request);
  if (!challenge) return formFailure({ formError: "twoFactor.verify.expired" }, 401);
  const intent = form.get("intent");
  if (intent === "cancel") {
    throw redirect("/login", { headers: { "Set-Cookie": await cancelChallenge(challenge) } });
  }
  const parsed = parseForm(verifySchema, form);
  if (!parsed.ok)
    return formFailure({ errors: parsed.errors, values: { intent: String(intent).slice(0, 20) } });
  const meta = { requestId: context.requestId, ip: context.ip };
  if (parsed.data.intent === "resend") {
    const mail = { site: (await getSiteSettings()).title, language: getPreferences(request).language };
    const sent = await resendCode(challenge, meta, mail);
    return sent ? { resent: true } : formFailure({ formError: "twoFactor.verify.noMoreCodes" }, 429);
  }
  const step =
    parsed.data.intent === "passkey"
      ? { kind: "passkey" as const, response: parsed.data.response }
      : {
          kind:
            parsed.data.intent === "recovery"
              ? ("recovery-code" as const)
              : parsed.data.intent === "totp"
                ? ("totp" as const)
                : ("email-code" as const),
          code: parsed.data.code,
        };
  const outcome = await completeSecondStep(request, challenge, step, meta);
  if ("location" in outcome) return redirectWith(outcome);
  if (outcome.refused === "throttled") {
    const seconds = outcome.retryAfterSeconds ?? 60;
    return data<FormFailure>(
      { formError: "auth.throttled", retryAfterMinutes: Math.max(1, Math.ceil(seconds / 60)) },
      { status: 429, headers: { "Retry-After": String(seconds) } },
    );
  }
  return formFailure(
    {
      formError: outcome.refused === "exhausted" ? "twoFactor.verify.exhausted" : "twoFactor.verify.wrong",
      values: { intent: parsed.data.intent },
    },
    401,
  );
}

type ActionData = FormFailure & { resent?: boolean };

/** A six-digit code's form: works without scripts. */
function CodeForm({
  intent,
  label,
  hint,
  error,
  submitting,
}: {
  intent: "email-code" | "totp";
  label: string;
  hint: string;
  error?: string;
  submitting: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={intent} />
      <Field
        id={`${intent}-code`}
        name="code"
        label={label}
        hint={hint}
        error={error}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={20}
        required
      />
      <button type="submit" className={buttonClass("primary")} disabled={submitting}>
        {t("twoFactor.verify.submit")}
      </button>
    </Form>
  );
}

export default function LoginVerify({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle";
  const failure = actionData as ActionData | undefined;
  const { choices } = loaderData;
  // The field error belongs to the form that was sent.
  const errorFor = (intent: string) =>
    failure?.values?.intent === intent ? failure.errors?.code : undefined;
  return (
    <div className="mx-auto max-w-lg px-4 py-10 sm:px-6">
      <DocumentTitle name={t("twoFactor.verify.title")} />
      <section
        aria-labelledby="verify-title"
        className="flex flex-col gap-6 rounded-xl border border-line bg-[color:var(--surface)] p-6 sm:p-8"
      >
        <h1 id="verify-title" className="font-display text-3xl text-primary">
          {t("twoFactor.verify.title")}
        </h1>
        <FailureAlert failure={failure} />
        {failure?.resent ? <FormNotice>{t("twoFactor.verify.resent")}</FormNotice> : null}
        {choices.emailCode ? (
          <>
            <p>{t("twoFactor.verify.emailIntro", { minutes: 10 })}</p>
            <CodeForm
              intent="email-code"
              label={t("twoFactor.verify.emailCode")}
              hint={t("twoFactor.verify.codeHint")}
              error={errorFor("email-code")}
              submitting={submitting}
            />
            {choices.canResend ? (
              <Form method="post">
                <input type="hidden" name="intent" value="resend" />
                <button type="submit" className={buttonClass("outline")} disabled={submitting}>
                  {t("twoFactor.verify.resend")}
                </button>
              </Form>
            ) : null}
          </>
        ) : (
          <p>{t("twoFactor.verify.factorIntro")}</p>
        )}
        {choices.passkey ? (
          <PasskeyButton
            mode="sign-in"
            optionsUrl="/login/verify/passkey"
            label={t("twoFactor.verify.usePasskey")}
            fields={{ intent: "passkey" }}
          />
        ) : null}
        {choices.totp ? (
          <CodeForm
            intent="totp"
            label={t("twoFactor.verify.totpCode")}
            hint={t("twoFactor.verify.codeHint")}
            error={errorFor("totp")}
            submitting={submitting}
          />
        ) : null}
        {choices.recovery ? (
          <details className="rounded-md border border-line p-4" open={errorFor("recovery") !== undefined}>
            <summary className="cursor-pointer">{t("twoFactor.verify.lostFactor")}</summary>
            <Form method="post" className="mt-4 flex flex-col gap-4">
              <input type="hidden" name="intent" value="recovery" />
              <Field
                id="recovery-code"
                name="code"
                label={t("twoFactor.verify.recoveryCode")}
                hint={t("twoFactor.verify.recoveryHint")}
                error={errorFor("recovery")}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={40}
                required
              />
              <button type="submit" className={buttonClass("outline")} disabled={submitting}>
                {t("twoFactor.verify.useRecoveryCode")}
              </button>
            </Form>
          </details>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="text-primary underline underline-offset-2">
            {t("twoFactor.verify.startAgain")}
          </button>
        </Form>
        {choices.emailCode ? null : <p className="text-sm text-muted">{t("twoFactor.verify.help")}</p>}
      </section>
    </div>
  );
}
