import { useTranslation } from "~/i18n/react";
import type { FieldErrors } from "~/lib/forms";
import { Field } from "~/ui/form";
import { DEDICATION_MAX } from "./address";

const selectClass =
  "min-h-11 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink aria-[invalid=true]:border-[#c0392b]";
const errorClass = "text-sm text-[#b42318] dark:text-[#ff8a80]";

/** The shipping address fields, each with its translated error beside it; the country from a fixed list. */
export function AddressFields({
  countries,
  errors,
  values,
}: {
  countries: { code: string; name: string }[];
  errors: FieldErrors;
  values: Record<string, string>;
}) {
  const { t } = useTranslation();
  const text = (name: string, label: string, max: number, autoComplete: string, required = true) => (
    <Field
      name={name}
      label={label}
      error={errors[name]}
      defaultValue={values[name]}
      maxLength={max}
      required={required}
      autoComplete={autoComplete}
    />
  );
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-2 font-display text-xl text-primary">{t("checkout.address.title")}</legend>
      {text("shipName", t("checkout.address.name"), 100, "shipping name")}
      {text("shipLine1", t("checkout.address.line1"), 200, "shipping address-line1")}
      {text("shipLine2", t("checkout.address.line2"), 200, "shipping address-line2", false)}
      <div className="grid gap-4 sm:grid-cols-2">
        {text("shipCity", t("checkout.address.city"), 100, "shipping address-level2")}
        {text("shipPostalCode", t("checkout.address.postalCode"), 20, "shipping postal-code")}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="field-shipCountry" className="font-display text-sm tracking-wide">
          {t("checkout.address.country")}
        </label>
        <select
          id="field-shipCountry"
          name="shipCountry"
          required
          defaultValue={values.shipCountry ?? ""}
          autoComplete="shipping country"
          aria-invalid={errors.shipCountry ? true : undefined}
          aria-describedby={errors.shipCountry ? "field-shipCountry-error" : undefined}
          className={selectClass}
        >
          <option value="">{t("checkout.address.chooseCountry")}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
        {errors.shipCountry ? (
          <p id="field-shipCountry-error" className={errorClass}>
            {t(errors.shipCountry)}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** The signed book's dedication note (up to 500 characters). */
export function DedicationField({ error, value }: { error?: string; value?: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="field-dedication" className="font-display text-sm tracking-wide">
        {t("checkout.dedication.label")}
      </label>
      <textarea
        id="field-dedication"
        name="dedication"
        rows={3}
        maxLength={DEDICATION_MAX}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`field-dedication-hint${error ? " field-dedication-error" : ""}`}
        className={selectClass}
      />
      <p id="field-dedication-hint" className="text-sm text-muted">
        {t("checkout.dedication.hint", { max: DEDICATION_MAX })}
      </p>
      {error ? (
        <p id="field-dedication-error" className={errorClass}>
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}
