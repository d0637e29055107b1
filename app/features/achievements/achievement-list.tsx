import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";
import type { AchievementsPage } from "./queries.server";

/** Every achievement: earned ones with their date, locked ones with how to earn them, hidden ones as "???". */
export function AchievementList({ items }: { items: AchievementsPage["items"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <ul className="grid gap-3 sm:grid-cols-2" data-testid="achievements">
      {items.map((item) => (
        <li
          key={item.key}
          data-earned={item.earnedAt ? "true" : "false"}
          className={`flex gap-3 rounded-xl border p-4 ${
            item.earnedAt ? "border-primary bg-[color:var(--surface)]" : "border-line text-muted"
          }`}
        >
          <span aria-hidden="true" className={`text-3xl ${item.earnedAt ? "" : "opacity-50 grayscale"}`}>
            {item.icon}
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <h2 className="font-display text-lg text-ink">{item.name ?? t("achievements.secret")}</h2>
            <p className="text-sm">{item.description ?? t("achievements.secretHint")}</p>
            <p className="text-sm">
              {item.earnedAt ? (
                <span className="text-primary">
                  {t("achievements.earnedOn", { date: format.date(item.earnedAt, { dateStyle: "long" }) })}
                </span>
              ) : (
                t("achievements.locked")
              )}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
