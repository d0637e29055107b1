import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { MembershipSource } from "./queries.server";
import type { MembershipTier } from "./tiers";

export type MembershipView = {
  tier: MembershipTier;
  source: MembershipSource;
  until: string | null;
  totalSpentCents: number;
  /** The cover from membership days bought, when any runs. */
  days: { tier: MembershipTier; until: string; daysLeft: number } | null;
};

/** The account's tier, why the reader has it, until when, and (below the top tier) how to go higher. */
export function MembershipSummary({
  membership,
  currency,
}: {
  membership: MembershipView;
  currency: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const tier = t(`tiers.${membership.tier}`);
  return (
    <div className="flex flex-col gap-2" data-testid="membership">
      <p>
        <strong className="font-display text-lg text-primary">{tier}</strong>
      </p>
      <p className="text-muted">
        {t(`membership.source.${membership.source}`, {
          spent: format.money(membership.totalSpentCents, currency),
        })}
      </p>
      {membership.until ? (
        <p>{t("membership.until", { date: format.date(membership.until, { dateStyle: "long" }) })}</p>
      ) : null}
      {membership.days ? (
        <p data-testid="membership-days">
          {t("membership.days", {
            tier: t(`tiers.${membership.days.tier}`),
            date: format.date(membership.days.until, { dateStyle: "long" }),
            count: membership.days.daysLeft,
          })}
        </p>
      ) : null}
      <p className="text-sm text-muted">
        {t("membership.totalSpent", { spent: format.money(membership.totalSpentCents, currency) })}
      </p>
      {membership.tier !== "first_human" ? (
        <p>
          <Link to="/fundraiser" className="text-primary underline underline-offset-2">
            {t("membership.upgrade")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
