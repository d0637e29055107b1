import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { SubscriptionView } from "./queries.server";

const linkClass = "text-primary underline underline-offset-2";

/**
 * The account's support subscription (ADR 27): tier, amount, next renewal or end, grace; change of tier and
 * cancel (through a confirmation page) as plain forms to /account/subscription, working without JavaScript.
 */
export function SubscriptionPanel({ subscription }: { subscription: SubscriptionView | null }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!subscription)
    return (
      <div className="flex flex-col gap-2" data-testid="subscription">
        <p>{t("subscriptions.none")}</p>
        <p>
          <Link to="/fundraiser" className={linkClass}>
            {t("subscriptions.join")}
          </Link>
        </p>
      </div>
    );
  const { phase, tierKey, pendingTierKey, amountCents, currency } = subscription;
  const date = (iso: string | null) => (iso ? format.date(iso, { dateStyle: "long" }) : "");
  const live = phase !== "ended";
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
      {pendingTierKey && live ? (
        <p>
          {t("subscriptions.pending", {
            tier: t(`tiers.${pendingTierKey}`),
            date: date(subscription.periodEnd),
          })}
        </p>
      ) : null}
      {live && phase !== "grace" ? (
        <Form method="post" action="/account/subscription" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="change" />
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-display">{t("subscriptions.change.legend")}</legend>
            {subscription.tiers.map((tier) => (
              <label key={tier.key} className="flex min-h-11 items-center gap-3">
                <input
                  type="radio"
                  name="tierKey"
                  value={tier.key}
                  defaultChecked={tier.key === (pendingTierKey ?? tierKey)}
                  className="size-5 accent-[color:var(--primary)]"
                />
                <span>
                  {t(`tiers.${tier.key}`)},{" "}
                  {t("subscriptions.perMonth", { amount: format.money(tier.amountCents, tier.currency) })}
                  {tier.key === tierKey ? ` (${t("subscriptions.change.current")})` : ""}
                </span>
              </label>
            ))}
          </fieldset>
          <p className="text-sm text-muted">{t("subscriptions.change.rules")}</p>
          <button type="submit" className={buttonClass("outline", "self-start")}>
            {t("subscriptions.change.submit")}
          </button>
        </Form>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {live && phase !== "ending" ? (
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
        {!live ? (
          <Link to="/fundraiser" className={linkClass}>
            {t("subscriptions.join")}
          </Link>
        ) : null}
      </div>
      {subscription.testPage && live ? (
        <p className="text-sm">
          <Link to={subscription.testPage} className={linkClass}>
            {t("subscriptions.testPage")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
