import { useTranslation } from "~/i18n/react";
import type { FieldErrors } from "~/lib/forms";
import { Field, FormAlert } from "~/ui/form";

/** The account forms' recurring fields, with the same names, labels and autocomplete everywhere. */
export function EmailField({
  error,
  defaultValue,
  label,
}: {
  error?: string;
  defaultValue?: string;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field
      name="email"
      type="email"
      label={label ?? t("auth.fields.email")}
      autoComplete="email"
      required
      defaultValue={defaultValue}
      error={error}
    />
  );
}

export function CurrentPasswordField({ error }: { error?: string }) {
  const { t } = useTranslation();
  return (
    <Field
      name="currentPassword"
      type="password"
      label={t("auth.fields.currentPassword")}
      autoComplete="current-password"
      error={error}
    />
  );
}

/** A new password and its confirmation (registration, reset, change). */
export function NewPasswordFields({ errors, label }: { errors: FieldErrors; label: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        name="password"
        type="password"
        label={label}
        autoComplete="new-password"
        required
        error={errors.password}
      />
      <Field
        name="confirmPassword"
        type="password"
        label={t("auth.fields.confirmPassword")}
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
      />
    </>
  );
}

/** The red box above a form, for a form-level refusal (a throttle says when to retry). */
export function FailureAlert({ failure }: { failure?: { formError?: string; retryAfterMinutes?: number } }) {
  const { t } = useTranslation();
  if (!failure?.formError) return null;
  return <FormAlert>{t(failure.formError, { count: failure.retryAfterMinutes ?? 0 })}</FormAlert>;
}
