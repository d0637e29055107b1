import "~/i18n/full-catalogue";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { getTestSubscription, runTestBilling } from "~/features/payments/test-billing.server";
import {
  providerSubscriptionIdSchema,
  readFormFields,
  testBillingSchema,
} from "~/features/subscriptions/schemas";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/test-subscription";

/**
 * The built-in test provider's page for a subscription (PAYMENT_PROVIDER=test only, its owner only): its
 * billing engine's buttons, each sending the provider's signed event through the webhook path.
 */
async function find(request: Request, id: string) {
  const user = await requireUser(request);
  const parsed = providerSubscriptionIdSchema.safeParse(id);
  const sub = parsed.success ? await getTestSubscription(parsed.data, user.id) : undefined;
  if (!sub) throw data(null, { status: 404 });
  return sub;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const sub = await find(request, params.subscription);
  return {
    tierKey: sub.tierKey,
    status: sub.status,
    amountCents: sub.amountCents,
    currency: sub.currency,
    periodEnd: sub.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    ended: sub.status === "canceled",
    done: new URL(request.url).searchParams.has("done"),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const sub = await find(request, params.subscription);
  const parsed = testBillingSchema.safeParse(await readFormFields(request));
  if (!parsed.success) return data({ error: "subscriptions.test.badAnswer" }, { status: 400 });
  if (sub.status === "canceled") return data({ error: "subscriptions.test.ended" }, { status: 409 });
  await runTestBilling(sub, parsed.data.action, new Date(), context);
  return redirect(`/pay/test/subscription/${sub.providerSubscriptionId}?done=1`);
}

export default function TestSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { tierKey, amountCents, currency, periodEnd, cancelAtPeriodEnd, ended, done } = loaderData;
  return (
    <Page title={t("subscriptions.test.title")} width="max-w-lg">
      <div className="flex flex-col gap-6">
        <p
          role="note"
          className="rounded-md border-2 border-dashed border-accent px-4 py-3 text-center font-display tracking-wide"
        >
          {t("payments.test.banner")}
        </p>
        {actionData?.error ? <FormAlert>{t(actionData.error)}</FormAlert> : null}
        {done ? <FormNotice>{t("subscriptions.test.sent")}</FormNotice> : null}
        <Panel id="test-subscription" title={t(`tiers.${tierKey}`)}>
          <p>{t("subscriptions.perMonth", { amount: format.money(amountCents, currency) })}</p>
          <p data-testid="test-subscription-state">
            {ended
              ? t("subscriptions.test.endedState")
              : t(cancelAtPeriodEnd ? "subscriptions.ends" : "subscriptions.renews", {
                  date: format.date(periodEnd, { dateStyle: "long" }),
                })}
          </p>
        </Panel>
        {ended ? null : (
          <Form method="post" className="flex flex-col gap-3">
            <p className="text-sm text-muted" id="billing-explainer">
              {t("subscriptions.test.explainer")}
            </p>
            {(["renew", "fail", "cancel"] as const).map((action) => (
              <button
                key={action}
                type="submit"
                name="action"
                value={action}
                aria-describedby="billing-explainer"
                disabled={action === "cancel" && cancelAtPeriodEnd}
                className={buttonClass(action === "renew" ? "primary" : "outline")}
              >
                {t(`subscriptions.test.${action}`)}
              </button>
            ))}
          </Form>
        )}
        <p className="text-center">
          <Link to="/account/subscription" className="text-primary underline underline-offset-2">
            {t("subscriptions.test.back")}
          </Link>
        </p>
      </div>
    </Page>
  );
}
