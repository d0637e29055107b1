import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { SubscriptionView, TierOption } from "./queries.server";

const linkClass = "text-primary underline underline-offset-2";

/**
 * The account's support subscription (ADR 27): tier, amount, next renewal or end, grace; change of tier and
 * cancel (through a confirmation page) as plain forms to /account/subscription, working without JavaScript.
 */
export function SubscriptionPanel({
  subscription,
  tiers,
}: {
  subscription: SubscriptionView | null;
  tiers: TierOption[];
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const date = (iso: string | null) => (iso ? format.date(iso, { dateStyle: "long" }) : "");
  if (!subscription || subscription.phase === "ended")
    return (
      <div className="flex flex-col gap-4" data-testid="subscription">
        <p data-testid="subscription-when">
          {subscription
            ? t("subscriptions.ended", { date: date(subscription.accessEnd) })
            : t("subscriptions.none")}
        </p>
        <TierForm
          intent="join"
          tiers={tiers}
          checked={subscription?.tierKey ?? null}
          legend={t("subscriptions.joinForm.legend")}
          submit={t("subscriptions.joinForm.submit")}
        />
        <p className="text-sm text-muted">
          {t("subscriptions.joinForm.wall")}{" "}
          <Link to="/fundraiser" className={linkClass}>
            {t("subscriptions.join")}
          </Link>
        </p>
      </div>
    );
  const { phase, tierKey, pendingTierKey, amountCents, currency } = subscription;
  const when = {
    active: t("subscriptions.renews", { date: date(subscription.periodEnd) }),
    renewing: t("subscriptions.renewing", { date: date(subscription.accessEnd) }),
    ending: t("subscriptions.ends", { date: date(subscription.periodEnd) }),
    grace: t("subscriptions.grace", { date: date(subscription.accessEnd) }),
    ended: t("subscriptions.ended", { date: date(subscription.accessEnd) }),
  }[phase];
  return (
    <div className="flex flex-col gap-4" data-testid="subscription">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="text-muted">{t("subscriptions.tier")}</dt>
        <dd data-testid="subscription-tier">{t(`tiers.${tierKey}`)}</dd>
        <dt className="text-muted">{t("subscriptions.amount")}</dt>
        <dd>{t("subscriptions.perMonth", { amount: format.money(amountCents, currency) })}</dd>
        <dt className="text-muted">{t("subscriptions.status")}</dt>
        <dd data-testid="subscription-status">{t(`subscriptions.phase.${phase}`)}</dd>
      </dl>
      <p data-testid="subscription-when" role={phase === "grace" ? "alert" : undefined}>
        {when}
      </p>
      {pendingTierKey ? (
        <p>
          {t("subscriptions.pending", {
            tier: t(`tiers.${pendingTierKey}`),
            date: date(subscription.periodEnd),
          })}
        </p>
      ) : null}
      {phase !== "grace" ? (
        <>
          <TierForm
            intent="change"
            tiers={tiers}
            checked={pendingTierKey ?? tierKey}
            current={tierKey}
            legend={t("subscriptions.change.legend")}
            submit={t("subscriptions.change.submit")}
          />
          <p className="text-sm text-muted">{t("subscriptions.change.rules")}</p>
        </>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {phase !== "ending" ? (
          <Link to="/account/subscription?confirm=cancel" className={buttonClass("ghost")}>
            {t("subscriptions.cancel.open")}
          </Link>
        ) : null}
        {phase === "ending" ? (
          <Form method="post" action="/account/subscription">
            <input type="hidden" name="intent" value="resume" />
            <button type="submit" className={buttonClass("outline")}>
              {t("subscriptions.resume")}
            </button>
          </Form>
        ) : null}
      </div>
      {subscription.testPage ? (
        <p className="text-sm">
          <Link to={subscription.testPage} className={linkClass}>
            {t("subscriptions.testPage")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** The three tiers as radio buttons and one submit: to join (again) or to change tier. */
function TierForm({
  intent,
  tiers,
  checked,
  current,
  legend,
  submit,
}: {
  intent: "join" | "change";
  tiers: TierOption[];
  checked: string | null;
  current?: string;
  legend: string;
  submit: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Form method="post" action="/account/subscription" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 font-display">{legend}</legend>
        {tiers.map((tier, index) => (
          <label key={tier.key} className="flex min-h-11 items-center gap-3">
            <input
              type="radio"
              name="tierKey"
              value={tier.key}
              required
              defaultChecked={checked ? tier.key === checked : index === 0}
              className="size-5 shrink-0 accent-[color:var(--primary)]"
            />
            <span>
              {t(`tiers.${tier.key}`)},{" "}
              {t("subscriptions.perMonth", { amount: format.money(tier.amountCents, tier.currency) })}
              {tier.key === current ? ` (${t("subscriptions.change.current")})` : ""}
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className={buttonClass("outline", "self-start")}>
        {submit}
      </button>
    </Form>
  );
}
