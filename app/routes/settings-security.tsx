import "~/i18n/full-catalogue";
import { Form, useNavigation } from "react-router";
import { assertCurrentPassword, FieldError } from "~/features/auth/commands.server";
import { requireUser } from "~/features/auth/guards.server";
import { formFailure } from "~/features/auth/responses.server";
import { getSiteSettings } from "~/features/site/queries.server";
import {
  confirmTotp,
  listFactors,
  newRecoveryCodes,
  pendingTotp,
  recoveryCodesLeft,
  registerPasskey,
  removeFactor,
  startTotp,
} from "~/features/two-factor/factors.server";
import { PasskeyButton } from "~/features/two-factor/passkey-button";
import { securitySchema } from "~/features/two-factor/schemas";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { keptForItsReader } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/settings-security";

/**
 * Sign-in security (ADR 65): the account's second factors (authenticator apps and passkeys), its recovery
 * codes, and for an author, how a sign-in on a new device is checked until they add one.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const site = (await getSiteSettings()).title;
  const [factors, codesLeft, pending] = await Promise.all([
    listFactors(user.id),
    recoveryCodesLeft(user.id),
    pendingTotp(user, site),
  ]);
  return {
    isAuthor: user.role === "author",
    hasPassword: user.hasPassword,
    factors: factors.map((factor) => ({ ...factor, createdAt: factor.createdAt.toISOString() })),
    codesLeft,
    pending,
  };
}

export const headers = keptForItsReader;

type ActionResult = {
  errors?: Record<string, string>;
  formError?: string;
  /** Which form the answer is about. */
  intent?: string;
  /** New recovery codes: shown this once. */
  recoveryCodes?: string[];
  done?: string;
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const parsed = parseForm(securitySchema, form);
  const intent = String(form.get("intent") ?? "").slice(0, 30);
  // A removal's answer names its factor: each factor has its own form.
  const factorId = String(form.get("factorId") ?? "").slice(0, 12);
  if (!parsed.ok) return formFailure({ errors: parsed.errors, values: { intent } });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "totp-start":
        await startTotp(user, (await getSiteSettings()).title);
        return { intent, done: "twoFactor.settings.totpStarted" } satisfies ActionResult;
      case "totp-confirm": {
        const codes = await confirmTotp(user.id, input.factorId, input.code, input.label ?? "");
        if (!codes)
          return formFailure({ errors: { code: "twoFactor.validation.codeWrong" }, values: { intent } });
        return { intent, done: "twoFactor.settings.totpAdded", recoveryCodes: codes } satisfies ActionResult;
      }
      case "passkey-register": {
        const codes = await registerPasskey(user.id, input.response, input.label ?? "");
        if (!codes) return formFailure({ formError: "twoFactor.passkeyFailed", values: { intent } });
        return {
          intent,
          done: "twoFactor.settings.passkeyAdded",
          recoveryCodes: codes,
        } satisfies ActionResult;
      }
      case "remove": {
        await assertCurrentPassword(user.id, input.currentPassword);
        if (!(await removeFactor(user.id, input.factorId)))
          return formFailure({ formError: "twoFactor.settings.notFound", values: { intent } }, 404);
        return { intent, done: "twoFactor.settings.removed" } satisfies ActionResult;
      }
      case "recovery-codes": {
        await assertCurrentPassword(user.id, input.currentPassword);
        if ((await listFactors(user.id)).length === 0)
          return formFailure({ formError: "twoFactor.settings.noFactor", values: { intent } });
        const codes = await newRecoveryCodes(user.id);
        return {
          intent,
          done: "twoFactor.settings.codesReplaced",
          recoveryCodes: codes,
        } satisfies ActionResult;
      }
    }
  } catch (error) {
    if (error instanceof FieldError)
      return formFailure({ errors: { [error.field]: error.messageKey }, values: { intent, factorId } });
    throw error;
  }
}

/** The current password, asked before a factor or the recovery codes change (an account without one skips it). */
function PasswordConfirm({ id, error, hasPassword }: { id: string; error?: string; hasPassword: boolean }) {
  const { t } = useTranslation();
  if (!hasPassword) return null;
  return (
    <Field
      id={id}
      name="currentPassword"
      type="password"
      autoComplete="current-password"
      label={t("auth.fields.currentPassword")}
      error={error}
      required
      maxLength={256}
    />
  );
}

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

export default function SettingsSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const result = actionData as (ActionResult & { values?: Record<string, string> }) | undefined;
  const about = (intent: string) => (result?.intent ?? result?.values?.intent) === intent;
  const errorFor = (intent: string, field: string) => (about(intent) ? result?.errors?.[field] : undefined);
  const { factors, pending, hasPassword } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6" aria-busy={busy}>
      <DocumentTitle name={t("twoFactor.settings.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("twoFactor.settings.title")}</h1>
      <p className="text-center">
        <Link to="/settings" className="text-primary underline underline-offset-2">
          {t("twoFactor.settings.back")}
        </Link>
      </p>
      {result?.formError ? <FormAlert>{t(result.formError)}</FormAlert> : null}
      {result?.done ? <FormNotice>{t(result.done)}</FormNotice> : null}
      {result?.recoveryCodes?.length ? (
        <Panel id="new-codes" title={t("twoFactor.settings.newCodesTitle")}>
          <p className="mb-3">{t("twoFactor.settings.newCodesText")}</p>
          <ol
            className="grid grid-cols-1 gap-1 font-mono text-lg sm:grid-cols-2"
            data-testid="recovery-codes"
          >
            {result.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
        </Panel>
      ) : null}
      <Panel id="factors" title={t("twoFactor.settings.factorsTitle")}>
        <p className="mb-3">
          {factors.length
            ? t("twoFactor.settings.on")
            : loaderData.isAuthor
              ? t("twoFactor.settings.offAuthor")
              : t("twoFactor.settings.off")}
        </p>
        {factors.length ? (
          <ul className="flex flex-col divide-y divide-line">
            {factors.map((factor) => (
              <li key={factor.id} className="flex flex-col gap-3 py-3">
                <p>
                  {/* A named factor says its kind after the name; an unnamed one is called by its kind once. */}
                  <span className="font-semibold">{factor.label || t(`twoFactor.kinds.${factor.kind}`)}</span>{" "}
                  <span className="text-muted">
                    · {factor.label ? `${t(`twoFactor.kinds.${factor.kind}`)} · ` : null}
                    {t("twoFactor.settings.added", {
                      date: format.date(factor.createdAt, { dateStyle: "medium" }),
                    })}
                  </span>
                </p>
                <Form method="post" className="flex flex-col gap-3">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="factorId" value={factor.id} />
                  <PasswordConfirm
                    id={`remove-${factor.id}-password`}
                    hasPassword={hasPassword}
                    error={
                      result?.values?.factorId === String(factor.id)
                        ? errorFor("remove", "currentPassword")
                        : undefined
                    }
                  />
                  <button type="submit" className={buttonClass("outline", "self-start")} disabled={busy}>
                    {t("twoFactor.settings.remove", {
                      name: factor.label || t(`twoFactor.kinds.${factor.kind}`),
                    })}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
      </Panel>
      <Panel id="totp" title={t("twoFactor.settings.totpTitle")}>
        {pending ? (
          <div className="flex flex-col gap-4">
            <p>{t("twoFactor.settings.totpScan")}</p>
            <p>
              <a href={pending.uri} className="text-primary underline underline-offset-2">
                {t("twoFactor.settings.totpOpen")}
              </a>
            </p>
            <p>
              {t("twoFactor.settings.totpKey")}{" "}
              <code className="break-all font-mono" data-testid="totp-secret">
                {grouped(pending.secret)}
              </code>
            </p>
            <Form method="post" className="flex flex-col gap-4">
              <input type="hidden" name="intent" value="totp-confirm" />
              <input type="hidden" name="factorId" value={pending.factorId} />
              <Field
                id="totp-label"
                name="label"
                label={t("twoFactor.settings.label")}
                hint={t("twoFactor.settings.labelHint")}
                maxLength={60}
                error={errorFor("totp-confirm", "label")}
              />
              <Field
                id="totp-code"
                name="code"
                label={t("twoFactor.settings.totpCode")}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={20}
                required
                error={errorFor("totp-confirm", "code")}
              />
              <button type="submit" className={buttonClass("primary", "self-start")} disabled={busy}>
                {t("twoFactor.settings.totpConfirm")}
              </button>
            </Form>
          </div>
        ) : (
          <Form method="post" className="flex flex-col gap-3">
            <p>{t("twoFactor.settings.totpText")}</p>
            <input type="hidden" name="intent" value="totp-start" />
            <button type="submit" className={buttonClass("primary", "self-start")} disabled={busy}>
              {t("twoFactor.settings.totpStart")}
            </button>
          </Form>
        )}
      </Panel>
      <Panel id="passkey" title={t("twoFactor.settings.passkeyTitle")}>
        <p className="mb-3">{t("twoFactor.settings.passkeyText")}</p>
        <PasskeyButton
          mode="enrol"
          optionsUrl="/settings/security/passkey"
          label={t("twoFactor.settings.passkeyAdd")}
          fields={{ intent: "passkey-register" }}
          className="self-start"
        />
      </Panel>
      {factors.length ? (
        <Panel id="recovery" title={t("twoFactor.settings.recoveryTitle")}>
          <p className="mb-3">{t("twoFactor.settings.recoveryLeft", { count: loaderData.codesLeft })}</p>
          <Form method="post" className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="recovery-codes" />
            <PasswordConfirm
              id="recovery-password"
              hasPassword={hasPassword}
              error={errorFor("recovery-codes", "currentPassword")}
            />
            <button type="submit" className={buttonClass("outline", "self-start")} disabled={busy}>
              {t("twoFactor.settings.recoveryNew")}
            </button>
          </Form>
        </Panel>
      ) : null}
    </div>
  );
}
