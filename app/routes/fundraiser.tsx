import "~/i18n/full-catalogue";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { FundraiserProgress, SupporterList } from "~/features/fundraiser/progress";
import { getFundraiser, listSupportTiers } from "~/features/fundraiser/queries.server";
import { useTranslation } from "~/i18n/react";
import { shareablePage } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/fundraiser";

const RECENT = 12;

export const headers = shareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const showAll = new URL(request.url).searchParams.get("supporters") === "all";
  const [fundraiser, tiers] = await Promise.all([
    getFundraiser({ recent: showAll ? undefined : RECENT }),
    listSupportTiers(),
  ]);
  return {
    showAll,
    fundraiser: fundraiser && { ...fundraiser, html: renderMarkdownCached(fundraiser.descriptionMd) },
    tiers: tiers.map(({ key, name, amountCents, currency, perks, pitch }) => ({
      key,
      name,
      amountCents,
      currency,
      perks,
      pitch,
    })),
  };
}

export default function Fundraiser({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { fundraiser, tiers, showAll } = loaderData;
  return (
    <Page title={t("fundraiser.heading")} intro={t("fundraiser.intro")} width="max-w-5xl">
      {fundraiser ? (
        <section
          aria-labelledby="goal"
          className="rounded-xl border border-line bg-[color:var(--surface)] p-6"
        >
          <p className="font-display text-sm tracking-widest text-accent uppercase">
            {t("fundraiser.monthlyGoal")}
          </p>
          <h2 id="goal" className="mb-3 font-display text-2xl text-primary">
            {fundraiser.title}
          </h2>
          <Prose html={fundraiser.html} className="mb-6" />
          <FundraiserProgress fundraiser={fundraiser} />
        </section>
      ) : (
        <p className="text-center italic">{t("fundraiser.noGoal")}</p>
      )}

      <section aria-labelledby="tiers" className="mt-12">
        <h2 id="tiers" className="mb-6 text-center font-display text-2xl text-primary">
          {t("fundraiser.tiersHeading")}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {tiers.map((tier) => (
            <li
              key={tier.key}
              className="flex flex-col gap-3 rounded-xl border border-line bg-[color:var(--surface)] p-6"
            >
              <h3 className="font-display text-xl">{tier.name}</h3>
              <p className="text-2xl text-primary">
                {t("fundraiser.perMonth", { amount: format.money(tier.amountCents, tier.currency) })}
              </p>
              <p className="text-muted">{tier.pitch}</p>
              <ul className="flex list-disc flex-col gap-1 pl-5">
                {tier.perks.map((perk) => (
                  <li key={perk}>{perk}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      {fundraiser ? (
        <section aria-labelledby="supporters" className="mt-12">
          <h2 id="supporters" className="mb-6 text-center font-display text-2xl text-primary">
            {showAll
              ? t("fundraiser.allSupporters", { count: fundraiser.supporterCount })
              : t("fundraiser.recentSupporters")}
          </h2>
          <SupporterList supporters={fundraiser.supporters} />
          {showAll ? null : (
            <p className="mt-6 text-center">
              <Link to="/fundraiser?supporters=all#supporters" className={buttonClass("outline")}>
                {t("fundraiser.viewAll")}
              </Link>
            </p>
          )}
        </section>
      ) : null}
    </Page>
  );
}
