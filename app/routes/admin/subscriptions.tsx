import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { z } from "zod";
import { ConfirmedForm, type FormResult } from "~/features/admin/confirmed-form";
import { FilterForm, FilterSelect, nextPagePath } from "~/features/admin/filters";
import { requireAuthor } from "~/features/auth/guards.server";
import { useReasonField } from "~/features/orders/money-forms";
import { cancelSubscriptionSchema, MONEY_FORM_LIMITS } from "~/features/orders/order-forms";
import {
  cancelSubscriptionForAuthor,
  listSubscriptionsForAdmin,
} from "~/features/subscriptions/admin.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm, wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/subscriptions";

const tiers = ["observer", "analyst", "first_human"] as const;

const filterSchema = z.object({
  tier: z.enum(tiers).optional().catch(undefined),
  current: z.literal("1").optional().catch(undefined),
  before: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const url = new URL(request.url);
  const filter = filterSchema.parse(Object.fromEntries(url.searchParams));
  const done = url.searchParams.get("done") === "cancel";
  return {
    ...(await listSubscriptionsForAdmin({ ...filter, current: filter.current === "1" })),
    filter,
    done,
  };
}

/** Cancels a subscription at its period end through its provider (ADR 43): confirmed, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const intent = echoedValue(form, "intent", 20);
  const values = { note: echoedValue(form, "note", MONEY_FORM_LIMITS.note) };
  const parsed = parseForm(cancelSubscriptionSchema, form);
  if (!parsed.ok) return data<FormResult>({ intent, errors: parsed.errors, values }, 400);
  const outcome = await cancelSubscriptionForAuthor(
    parsed.data.subscription,
    parsed.data.note,
    { via: "admin", userId: author.id },
    context,
  );
  if (outcome.ok) return redirect("/admin/subscriptions?done=cancel");
  if (outcome.reason === "notFound") throw data(null, { status: 404 });
  const status = outcome.reason === "status";
  return data<FormResult>(
    {
      intent,
      errors: { form: status ? "admin.money.errors.status" : "admin.money.errors.unavailable" },
      values,
    },
    status ? 409 : 503,
  );
}

/** Support subscriptions: who, which tier, until when; each running one can be cancelled (ADR 43). */
export default function AdminSubscriptions({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { subscriptions, next, filter, done } = loaderData;
  const result = actionData as FormResult | undefined;
  const reason = useReasonField();
  return (
    <>
      <DocumentTitle name={t("admin.subscriptions.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.subscriptions.title")}</h1>
      {result?.errors?.form ? <FormAlert>{t(result.errors.form)}</FormAlert> : null}
      {done && !result ? <FormNotice>{t("admin.subscriptions.done")}</FormNotice> : null}
      <FilterForm submit={t("admin.orders.filter")}>
        <FilterSelect
          label={t("subscriptions.tier")}
          name="tier"
          value={filter.tier}
          any={t("admin.subscriptions.anyTier")}
          options={tiers.map((tier) => ({ value: tier, label: t(`tiers.${tier}`) }))}
        />
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="current"
            value="1"
            defaultChecked={filter.current === "1"}
            className="h-5 w-5"
          />
          {t("admin.subscriptions.current")}
        </label>
      </FilterForm>
      {subscriptions.length ? (
        <ul className="flex flex-col divide-y divide-line" data-testid="admin-subscriptions">
          {subscriptions.map((sub) => (
            <li key={sub.id} className="flex flex-col gap-2 py-3">
              <p className="flex flex-wrap items-baseline justify-between gap-x-4">
                <Link to={`/admin/readers/${sub.userId}`} className="min-w-0 break-all underline">
                  {sub.subscriber}
                </Link>
                <span className="text-sm text-muted">
                  {t(`tiers.${sub.tierKey}`)} ·{" "}
                  {t("subscriptions.perMonth", { amount: format.money(sub.amountCents, sub.currency) })} ·{" "}
                  {t(`subscriptions.phase.${sub.phase}`)} ·{" "}
                  {t("admin.subscriptions.periodEnd", { date: format.date(sub.periodEnd) })}
                </span>
              </p>
              {sub.cancellable ? (
                <details open={result?.intent === `cancel-${sub.id}`}>
                  <summary className="min-h-11 cursor-pointer py-2 underline">
                    {t("admin.subscriptions.cancel")}
                  </summary>
                  <ConfirmedForm
                    intent={`cancel-${sub.id}`}
                    submit={t("admin.subscriptions.cancel")}
                    confirmLabel={t("admin.subscriptions.confirmCancel")}
                    result={result}
                    note={reason}
                  />
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted">{t("admin.subscriptions.none")}</p>
      )}
      {next ? (
        <Link
          to={nextPagePath("/admin/subscriptions", filter, next)}
          className={buttonClass("outline", "self-start")}
        >
          {t("admin.orders.more")}
        </Link>
      ) : null}
    </>
  );
}
