import { Form } from "react-router";
import type { LinkedIdentity } from "~/features/account/queries.server";
import { CurrentPasswordField, EmailField, NewPasswordFields } from "~/features/auth/fields";
import type { FormFailure } from "~/features/auth/responses.server";
import { changeEmailSchema, changePasswordSchema, deleteAccountSchema } from "~/features/auth/schemas";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Checkbox, FormAlert, FormNotice, useFormValidation } from "~/ui/form";

/**
 * The account forms of /settings (e-mail, password, deletion, linked accounts). Each posts its `intent` to
 * the page's action, which answers with the intent it handled, so only that form shows the errors or the
 * notice.
 */
export type ActionResult = FormFailure & {
  intent?: string;
  done?: string;
  /** A new private feed address, shown once (only its token's hash is kept). */
  feedUrl?: string;
};

export function useSection(intent: string, actionData: ActionResult | undefined) {
  const mine = actionData?.intent === intent ? actionData : undefined;
  return { errors: mine?.errors, done: mine?.done };
}

export function EmailForm({
  actionData,
  email,
  hasPassword,
}: {
  actionData?: ActionResult;
  email: string;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  const section = useSection("changeEmail", actionData);
  const { errors, onSubmit } = useFormValidation(changeEmailSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      <input type="hidden" name="intent" value="changeEmail" />
      <EmailField label={t("account.email.new")} defaultValue={email} error={errors.email} />
      {hasPassword ? (
        <CurrentPasswordField error={errors.currentPassword} />
      ) : (
        <input type="hidden" name="currentPassword" value="-" />
      )}
      <button type="submit" className={buttonClass("outline", "self-start")}>
        {t("account.email.submit")}
      </button>
    </Form>
  );
}

export function PasswordForm({ actionData }: { actionData?: ActionResult }) {
  const { t } = useTranslation();
  const section = useSection("changePassword", actionData);
  const { errors, onSubmit } = useFormValidation(changePasswordSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      <input type="hidden" name="intent" value="changePassword" />
      <CurrentPasswordField error={errors.currentPassword} />
      <NewPasswordFields errors={errors} label={t("auth.fields.newPassword")} />

      <button type="submit" className={buttonClass("outline", "self-start")}>
        {t("account.password.submit")}
      </button>
    </Form>
  );
}

export function DeleteForm({ actionData, hasPassword }: { actionData?: ActionResult; hasPassword: boolean }) {
  const { t } = useTranslation();
  const section = useSection("deleteAccount", actionData);
  const { errors, onSubmit } = useFormValidation(deleteAccountSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="deleteAccount" />
      <p>{t("account.delete.warning")}</p>
      {hasPassword ? <CurrentPasswordField error={errors.currentPassword} /> : null}
      <Checkbox name="confirm" label={t("account.delete.confirm")} error={errors.confirm} />
      <button
        type="submit"
        className={buttonClass("primary", "self-start bg-[#9b1030] text-white hover:bg-[#7a0c26]")}
      >
        {t("account.delete.submit")}
      </button>
    </Form>
  );
}

/**
 * The identities linked to the account, each with its name and an "Unlink" button, and a button to link
 * each configured provider that is not. Providers the site no longer has configured are not offered.
 */
export function LinkedAccounts({
  actionData,
  linked,
  providers,
}: {
  actionData?: ActionResult;
  linked: LinkedIdentity[];
  providers: ("discord" | "google")[];
}) {
  const { t } = useTranslation();
  const section = useSection("unlink", actionData);
  const shown = linked.filter((identity) => providers.some((provider) => provider === identity.provider));
  const linkable = providers.filter((provider) => !linked.some((identity) => identity.provider === provider));
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{t("oauth.account.intro")}</p>
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      {section.errors?.provider ? <FormAlert>{t(section.errors.provider)}</FormAlert> : null}
      {shown.length ? (
        <ul className="flex flex-col gap-2">
          {shown.map((identity) => {
            const provider = t(`oauth.providers.${identity.provider}`);
            return (
              <li key={identity.provider} className="flex flex-wrap items-center justify-between gap-3">
                <span>
                  {t("oauth.account.linked", { provider })}
                  {identity.username || identity.displayName ? (
                    <span className="text-muted"> · {identity.username ?? identity.displayName}</span>
                  ) : null}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="unlink" />
                  <input type="hidden" name="provider" value={identity.provider} />
                  <button type="submit" className={buttonClass("ghost")}>
                    {t("oauth.account.unlink", { provider })}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      ) : (
        <p>{t("oauth.account.none")}</p>
      )}
      {linkable.length ? (
        <div className="flex flex-wrap gap-3">
          {linkable.map((provider) => (
            <Form key={provider} method="post" action={`/auth/${provider}`} reloadDocument>
              <input type="hidden" name="redirectTo" value="/settings#linked" />
              <button type="submit" className={buttonClass("outline")}>
                {t("oauth.account.link", { provider: t(`oauth.providers.${provider}`) })}
              </button>
            </Form>
          ))}
        </div>
      ) : null}
    </div>
  );
}
