import "~/i18n/full-catalogue";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { CheckoutError, startCheckout } from "~/features/payments/checkout.server";
import {
  cancelSubscription,
  changeTier,
  resumeSubscription,
  SubscriptionError,
} from "~/features/subscriptions/commands.server";
import { getSubscriptionPanel } from "~/features/subscriptions/queries.server";
import { readFormFields, subscriptionActionSchema } from "~/features/subscriptions/schemas";
import { SubscriptionPanel } from "~/features/subscriptions/subscription-panel";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/subscription";

const UNLISTED = { display: "hidden", name: "", emoji: "", message: "" } as const;
const DONE = ["upgrade", "downgrade", "same", "cancel", "resume"] as const;
type Done = (typeof DONE)[number];

/** The supporter's subscription: its panel, the cancel confirmation, and what a change did. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const done = url.searchParams.get("done");
  return {
    ...(await getSubscriptionPanel(user.id)),
    confirmCancel: url.searchParams.get("confirm") === "cancel",
    done: DONE.includes(done as Done) ? (done as Done) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const fields = await readFormFields(request);
  const parsed = subscriptionActionSchema.safeParse(fields);
  if (!parsed.success) {
    // A cancel without its confirmation goes to the confirmation step.
    if (fields?.intent === "cancel" && Object.keys(fields).length === 1)
      return redirect("/account/subscription?confirm=cancel");
    return data({ error: "subscriptions.errors.badRequest" }, { status: 400 });
  }
  try {
    if (parsed.data.intent === "join") {
      // Joined from the account: not listed on the supporters wall (the Join form on /fundraiser asks).
      const { url } = await startCheckout(
        user,
        { kind: "subscription", tierKey: parsed.data.tierKey, supporter: UNLISTED },
        { ip: context.ip },
      );
      return redirect(url);
    }
    let done: Done;
    if (parsed.data.intent === "change") done = await changeTier(user.id, parsed.data.tierKey, context);
    else if (parsed.data.intent === "cancel") {
      await cancelSubscription(user.id, context);
      done = "cancel";
    } else {
      await resumeSubscription(user.id, context);
      done = "resume";
    }
    return redirect(`/account/subscription?done=${done}`);
  } catch (error) {
    if (error instanceof SubscriptionError || error instanceof CheckoutError)
      return data({ error: error.messageKey }, { status: error.status });
    throw error;
  }
}

export default function AccountSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { subscription, tiers, confirmCancel, done } = loaderData;
  const canCancel = subscription && subscription.phase !== "ended" && subscription.phase !== "ending";
  return (
    <Page title={t("subscriptions.title")} width="max-w-3xl">
      <div className="flex flex-col gap-6">
        {actionData?.error ? <FormAlert>{t(actionData.error)}</FormAlert> : null}
        {done ? <FormNotice>{t(`subscriptions.done.${done}`)}</FormNotice> : null}
        {confirmCancel && canCancel ? (
          <Panel id="confirm-cancel" title={t("subscriptions.cancel.title")}>
            <p className="mb-4">
              {t("subscriptions.cancel.explain", {
                tier: t(`tiers.${subscription.tierKey}`),
                date: format.date(subscription.periodEnd, { dateStyle: "long" }),
              })}
            </p>
            <div className="flex flex-wrap gap-3">
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <input type="hidden" name="confirm" value="yes" />
                <button type="submit" className={buttonClass("primary")}>
                  {t("subscriptions.cancel.confirm")}
                </button>
              </Form>
              <Link to="/account/subscription" className={buttonClass("outline")}>
                {t("subscriptions.cancel.keep")}
              </Link>
            </div>
          </Panel>
        ) : (
          <Panel id="subscription" title={t("subscriptions.panelTitle")}>
            <SubscriptionPanel subscription={subscription} tiers={tiers} />
          </Panel>
        )}
        <p className="text-center">
          <Link to="/account" className="text-primary underline underline-offset-2">
            {t("subscriptions.backToAccount")}
          </Link>
        </p>
      </div>
    </Page>
  );
}
