import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";
import type { GoalFigures } from "./queries.server";

type Figures = Pick<GoalFigures, "raisedCents" | "targetCents" | "currency" | "percent" | "barPercent">;

/**
 * A goal's bar and "Current: $X / Goal: $Y", from the same figures on every page. The bar stops at 100 %;
 * the text, and what a screen reader hears (aria-valuetext), give the real amount when the goal is passed.
 */
export function GoalProgress({ goal, label }: { goal: Figures; label: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const current = format.money(goal.raisedCents, goal.currency);
  const target = format.money(goal.targetCents, goal.currency);
  const text = t("fundraiser.currentOfGoal", { current, goal: target });
  const percent = t("fundraiser.percent", { percent: format.number(goal.percent) });
  return (
    <div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={goal.barPercent}
        aria-valuetext={`${text} (${percent})`}
        aria-label={label}
        className="h-4 overflow-hidden rounded-full border border-line bg-[color:var(--line)]"
      >
        <div className="h-full rounded-full bg-primary" style={{ width: `${goal.barPercent}%` }} />
      </div>
      <p className="mt-3 flex flex-wrap justify-between gap-2 text-lg">
        <span>{text}</span>
        <span className="font-display text-primary">{percent}</span>
      </p>
    </div>
  );
}

export type WallEntryView = { id: number; name: string | null; tier: string; emoji: string; message: string };

/** Wall entries: emoji, the shown name (or "Anonymous"), the tier label and the message as plain text. */
export function SupporterList({ supporters }: { supporters: WallEntryView[] }) {
  const { t } = useTranslation();
  return (
    <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="supporter-list">
      {supporters.map((supporter) => (
        <li
          key={supporter.id}
          className="flex min-w-0 items-start gap-3 rounded-lg border border-line bg-[color:var(--surface)] px-4 py-3"
        >
          <span aria-hidden="true" className="w-8 shrink-0 text-2xl">
            {supporter.emoji || "✦"}
          </span>
          <span className="flex min-w-0 flex-col">
            <span className="font-semibold break-words">{supporter.name ?? t("supporters.anonymous")}</span>
            <span className="text-sm text-muted">{t(`supporters.tiers.${supporter.tier}`)}</span>
            {supporter.message ? (
              <span className="mt-1 text-sm break-words italic">{supporter.message}</span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
