import { ItemName } from "~/features/payments/item-name";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Dashboard } from "./queries.server";
import { relativeTime } from "./relative-time";

/** Hours and minutes of reading, e.g. "3 h 20 min", or "20 min" under an hour. */
function useDuration() {
  const { t } = useTranslation();
  return (seconds: number) => {
    const minutes = Math.floor(seconds / 60);
    return minutes < 60
      ? t("dashboard.minutes", { minutes })
      : t("dashboard.duration", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
}

/** SEED.md's relative time: "Just now", "Nh ago", "Nd ago", then a date in the reader's language. */
export function RelativeTime({ at, now }: { at: string; now: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const relative = relativeTime(new Date(at), new Date(now));
  const text =
    relative.kind === "justNow"
      ? t("dashboard.justNow")
      : relative.kind === "date"
        ? format.date(at)
        : t(`dashboard.${relative.kind}Ago`, { count: relative.count });
  return <time dateTime={at}>{text}</time>;
}

export function ChaptersAhead({ ahead }: { ahead: Dashboard["ahead"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!ahead.length) return <p className="text-muted">{t("dashboard.ahead.none")}</p>;
  return (
    <div className="flex flex-col gap-2">
      <p>{t("dashboard.ahead.count", { count: ahead.length })}</p>
      <ul className="flex flex-col gap-1">
        {ahead.map((chapter) => (
          <li key={chapter.number} className="flex flex-wrap justify-between gap-x-4">
            <Link to={`/chapter/${chapter.number}`} className="text-primary underline underline-offset-2">
              {t("dashboard.ahead.chapter", { number: chapter.number, title: chapter.title })}
            </Link>
            <span className="text-sm text-muted">
              {t("dashboard.ahead.releases", { date: format.date(chapter.releaseAt) })}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const CELL = 12;
const GAP = 3;

function level(seconds: number | null): string {
  if (seconds === null) return "opacity-0";
  if (seconds === 0) return "fill-[color:var(--line)]";
  if (seconds < 120) return "fill-primary opacity-25";
  if (seconds < 900) return "fill-primary opacity-50";
  if (seconds < 2700) return "fill-primary opacity-75";
  return "fill-primary";
}

/**
 * Twelve weeks of reading as squares (a column a week, Monday on top), with a text alternative (the label
 * and the caption). No per-day <title>: a page has one title element (tests/server/route-table.test.ts).
 */
function Heatmap({ days }: { days: Dashboard["activity"]["heatmap"] }) {
  const { t } = useTranslation();
  const weeks = days.length / 7;
  const read = days.filter((day) => (day.seconds ?? 0) >= 120).length;
  const summary = t("dashboard.heatmap.summary", { count: read, weeks });
  return (
    <figure className="flex flex-col gap-2">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${weeks * (CELL + GAP) - GAP} ${7 * (CELL + GAP) - GAP}`}
        className="h-auto w-full max-w-md"
        data-testid="heatmap"
      >
        {days.map((day, index) => (
          <rect
            key={day.day}
            x={Math.floor(index / 7) * (CELL + GAP)}
            y={(index % 7) * (CELL + GAP)}
            width={CELL}
            height={CELL}
            rx={2}
            className={level(day.seconds)}
            data-day={day.day}
          />
        ))}
      </svg>
      {/* The label's text, for the eye; read once, as the image's name. */}
      <figcaption aria-hidden="true" className="text-sm text-muted">
        {summary}
      </figcaption>
    </figure>
  );
}

export function ReadingActivity({ activity }: { activity: Dashboard["activity"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const duration = useDuration();
  // Compared in whole minutes, as they are shown.
  const change = (Math.floor(activity.thisWeek / 60) - Math.floor(activity.lastWeek / 60)) * 60;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="reading-activity">
        <div>
          <dt className="text-sm text-muted">{t("dashboard.activity.completed")}</dt>
          <dd className="font-display text-2xl" data-testid="chapters-completed">
            {format.number(activity.chaptersCompleted)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{t("dashboard.activity.words")}</dt>
          <dd className="font-display text-2xl" data-testid="words-read">
            {format.number(activity.wordsRead)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{t("dashboard.activity.time")}</dt>
          <dd className="font-display text-2xl" data-testid="time-read">
            {duration(activity.secondsRead)}
          </dd>
        </div>
      </dl>
      <p data-testid="week-comparison">
        {t("dashboard.activity.week", {
          thisWeek: duration(activity.thisWeek),
          lastWeek: duration(activity.lastWeek),
        })}{" "}
        <span className="text-muted">
          {change === 0
            ? t("dashboard.activity.same")
            : t(change > 0 ? "dashboard.activity.more" : "dashboard.activity.less", {
                difference: duration(Math.abs(change)),
              })}
        </span>
      </p>
      <Heatmap days={activity.heatmap} />
    </div>
  );
}

export function StreakCard({ streak }: { streak: Dashboard["streak"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="flex flex-col gap-3" data-testid="streak">
      <dl className="grid grid-cols-3 gap-3">
        <div>
          <dt className="text-sm text-muted">{t("streaks.current")}</dt>
          <dd className="font-display text-2xl" data-testid="streak-current">
            {t("streaks.days", { count: streak.current })}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{t("streaks.longest")}</dt>
          <dd className="font-display text-2xl" data-testid="streak-longest">
            {t("streaks.days", { count: streak.longest })}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{t("streaks.freezes")}</dt>
          <dd className="font-display text-2xl" data-testid="streak-freezes">
            {format.number(streak.freezes)}
          </dd>
        </div>
      </dl>
      {streak.next ? (
        <div className="flex flex-col gap-1">
          <label htmlFor="streak-progress" className="text-sm">
            {t("streaks.next", {
              milestone: streak.next.milestone,
              count: streak.next.milestone - streak.current,
            })}
          </label>
          <progress
            id="streak-progress"
            className="h-2 w-full appearance-none overflow-hidden rounded-full bg-[color:var(--line)] [&::-moz-progress-bar]:bg-primary [&::-webkit-progress-bar]:bg-[color:var(--line)] [&::-webkit-progress-value]:bg-primary"
            max={streak.next.milestone}
            value={streak.current}
          />
        </div>
      ) : (
        <p>{t("streaks.allMilestones")}</p>
      )}
      <p className="text-sm text-muted">{t("streaks.rules")}</p>
    </div>
  );
}

export function AccountStats({ stats }: { stats: Dashboard["stats"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2" data-testid="account-stats">
      <dt className="text-muted">{t("dashboard.stats.memberSince")}</dt>
      <dd>{format.date(stats.memberSince, { month: "long", year: "numeric" })}</dd>
      <dt className="text-muted">{t("dashboard.stats.unlocked")}</dt>
      <dd>{format.number(stats.chaptersUnlocked)}</dd>
      <dt className="text-muted">{t("dashboard.stats.orders")}</dt>
      <dd>{format.number(stats.orders)}</dd>
      <dt className="text-muted">{t("dashboard.stats.supporterSince")}</dt>
      <dd>{stats.supporterSince ? format.date(stats.supporterSince) : t("dashboard.stats.notYet")}</dd>
      <dt className="text-muted">{t("dashboard.stats.achievements")}</dt>
      <dd data-testid="achievement-count">
        <Link to="/achievements" className="text-primary underline underline-offset-2">
          {t("achievements.count", { earned: stats.achievements.earned, total: stats.achievements.total })}
        </Link>
      </dd>
    </dl>
  );
}

export function RecentActivity({ recent, now }: { recent: Dashboard["recent"]; now: string }) {
  const { t } = useTranslation();
  if (!recent.length) return <p className="text-muted">{t("dashboard.recent.none")}</p>;
  return (
    <ul className="flex flex-col gap-2" data-testid="recent-activity">
      {recent.map((item) => (
        <li key={`${item.kind}-${item.at}-${item.label}`} className="flex flex-wrap justify-between gap-x-4">
          <span>
            {t(`dashboard.recent.${item.kind}`)}{" "}
            {item.purchase ? (
              <ItemName item={item.purchase} />
            ) : item.href ? (
              <Link to={item.href} className="text-primary underline underline-offset-2">
                {item.label}
              </Link>
            ) : (
              item.label
            )}
          </span>
          <span className="text-sm text-muted">
            <RelativeTime at={item.at} now={now} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Where the dashboard leads: coins, achievements and settings. */
export function DashboardLinks() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("dashboard.links")} className="flex flex-wrap justify-center gap-3">
      <Link to="/coins" className={buttonClass("outline")}>
        {t("dashboard.buyCoins")}
      </Link>
      <Link to="/achievements" className={buttonClass("primary")}>
        {t("dashboard.viewAchievements")}
      </Link>
      <Link to="/settings" className={buttonClass("outline")}>
        {t("settings.title")}
      </Link>
    </nav>
  );
}
