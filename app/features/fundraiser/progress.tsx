import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";

export type FundraiserFigures = {
  raisedCents: number;
  targetCents: number;
  currency: string;
  percent: number;
};

/** The goal's progress bar and "Current: $X / Goal: $Y", from the same records everywhere. */
export function FundraiserProgress({ fundraiser }: { fundraiser: FundraiserFigures }) {
  const { t } = useTranslation();
  const format = useFormat();
  const current = format.money(fundraiser.raisedCents, fundraiser.currency);
  const goal = format.money(fundraiser.targetCents, fundraiser.currency);
  return (
    <div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fundraiser.percent}
        aria-label={t("fundraiser.progressLabel")}
        className="h-4 overflow-hidden rounded-full border border-line bg-[color:var(--line)]"
      >
        <div className="h-full rounded-full bg-primary" style={{ width: `${fundraiser.percent}%` }} />
      </div>
      <p className="mt-3 flex flex-wrap justify-between gap-2 text-lg">
        <span>{t("fundraiser.currentOfGoal", { current, goal })}</span>
        <span className="font-display text-primary">
          {t("fundraiser.percent", { percent: fundraiser.percent })}
        </span>
      </p>
    </div>
  );
}

export function SupporterList({
  supporters,
}: {
  supporters: { id: number; name: string; tier: string; emoji: string }[];
}) {
  const { t } = useTranslation();
  return (
    <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {supporters.map((supporter) => (
        <li
          key={supporter.id}
          className="flex items-center gap-3 rounded-lg border border-line bg-[color:var(--surface)] px-4 py-3"
        >
          <span aria-hidden="true" className="text-2xl">
            {supporter.emoji}
          </span>
          <span className="flex flex-col">
            <span className="font-semibold">{supporter.name}</span>
            <span className="text-sm text-muted">{t(`supporterTiers.${supporter.tier}`)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
