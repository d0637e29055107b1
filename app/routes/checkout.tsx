import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { CartLines, RemoveLine } from "~/features/cart/cart-lines";
import { checkoutFormSchema, countryOptions } from "~/features/orders/address";
import { AddressFields, DedicationField } from "~/features/orders/address-fields";
import { CheckoutFormError, checkoutCart, OrderError, placeOrder } from "~/features/orders/place.server";
import { CheckoutError } from "~/features/payments/checkout.server";
import { useTranslation } from "~/i18n/react";
import type { FieldErrors } from "~/lib/forms";
import { echoedValue, readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { keptForItsReader } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { FormAlert, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import type { Route } from "./+types/checkout";

/** Kept for the reader's session until anything of theirs changes (ADR 53). */
export const headers = keptForItsReader;

/** The checkout (ADR 25): the reader's stored cart priced by the server, the address, then the provider. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const cart = await checkoutCart(user.id);
  return {
    ...cart,
    lines: cart.lines.map((line) => ({
      productId: line.productId,
      variantId: line.variantId,
      quantity: line.quantity,
      name: line.name,
      variantLabel: line.variantLabel,
      unitPriceCents: line.unitPriceCents,
      currency: line.currency,
      stock: line.stock,
    })),
    countries: cart.needs.shipping ? countryOptions(getPreferences(request).language) : [],
  };
}

const FIELDS = [
  "shipName",
  "shipLine1",
  "shipLine2",
  "shipCity",
  "shipPostalCode",
  "shipCountry",
  "dedication",
];

type ActionResult = {
  errors?: FieldErrors;
  formError?: string;
  formValues?: Record<string, string>;
  values: Record<string, string>;
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  const values = Object.fromEntries(FIELDS.map((name) => [name, echoedValue(form, name, 600)]));
  try {
    const { url } = await placeOrder(user, fields, { ip: context.ip });
    return redirect(url, 303);
  } catch (error) {
    if (error instanceof CheckoutFormError) {
      const { form: formError, ...errors } = error.errors;
      return data({ errors, formError, values } satisfies ActionResult, { status: 400 });
    }
    if (error instanceof OrderError || error instanceof CheckoutError)
      return data(
        {
          formError: error.messageKey,
          formValues: error instanceof OrderError ? error.values : {},
          values,
        } satisfies ActionResult,
        { status: error.status },
      );
    throw error;
  }
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { lines, problems, needs, countries } = loaderData;
  const result = actionData as ActionResult | undefined;
  const { errors, onSubmit } = useFormValidation(checkoutFormSchema(needs), result?.errors);
  if (!lines.length && !problems.length)
    return (
      <Page title={t("checkout.title")} width="max-w-2xl">
        <p className="text-center" data-testid="checkout-empty">
          {t("checkout.empty")}{" "}
          <Link to="/shop" className="text-primary underline underline-offset-2">
            {t("checkout.toShop")}
          </Link>
        </p>
      </Page>
    );
  return (
    <Page title={t("checkout.title")} width="max-w-2xl">
      <div className="flex flex-col gap-8">
        <Panel id="checkout-lines" title={t("checkout.lines")}>
          <CartLines lines={lines} />
          {problems.length ? (
            <ul className="mt-4 flex flex-col gap-2" data-testid="checkout-problems">
              {problems.map((problem) => (
                <li
                  key={`${problem.productId}.${problem.variantId ?? ""}`}
                  className="flex flex-wrap items-center gap-2"
                >
                  <div className="flex-1">
                    <FormAlert>
                      {t(problem.messageKey, { item: problem.item, left: problem.stock })}
                    </FormAlert>
                  </div>
                  <RemoveLine line={problem} name={problem.item} back="/checkout" />
                </li>
              ))}
            </ul>
          ) : null}
        </Panel>
        {result?.formError ? (
          <FormAlert>{t(result.formError, result.formValues)}</FormAlert>
        ) : errors.form ? (
          <FormAlert>{t(errors.form)}</FormAlert>
        ) : null}
        {problems.length ? (
          <p className="text-center">
            <Link to="/shop" className="text-primary underline underline-offset-2">
              {t("checkout.fixCart")}
            </Link>
          </p>
        ) : (
          <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
            {needs.shipping ? (
              <AddressFields countries={countries} errors={errors} values={result?.values ?? {}} />
            ) : null}
            {needs.dedication ? (
              <DedicationField error={errors.dedication} value={result?.values.dedication} />
            ) : null}
            <p className="text-sm text-muted">{t("checkout.reservation")}</p>
            <button type="submit" className={buttonClass("primary", "w-full")} disabled={busy}>
              {busy ? t("checkout.paying") : t("checkout.pay")}
            </button>
          </Form>
        )}
      </div>
    </Page>
  );
}
