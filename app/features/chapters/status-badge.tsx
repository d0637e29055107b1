import { useEffect, useState } from "react";
import { Trans, useTranslation } from "~/i18n/react";
import { CoinIcon, LockIcon } from "~/ui/icons";
import { Link } from "~/ui/link";
import { useTimeZone } from "~/ui/time-zone";
import { useFormat } from "~/ui/use-format";
import type { TocChapter } from "./queries.server";
import { countdown, releaseLabel } from "./release-label";

type BadgeChapter = Pick<TocChapter, "number" | "status" | "coinsRequired" | "releaseAt">;

/**
 * A chapter's access in words: free, its price, unlocked, or when it opens. The TOC and the home page.
 * `now` is the release time the page was rendered at (the home page's latest chapter is always out).
 */
export function ChapterStatusBadge({ chapter, now }: { chapter: BadgeChapter; now?: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (chapter.status === "free") {
    return (
      <span className="rounded-full bg-primary px-2 py-0.5 font-display text-xs text-on-primary">
        {t("toc.free")}
      </span>
    );
  }
  if (chapter.status === "unlocked") {
    return (
      <span
        data-status="unlocked"
        className="rounded-full border border-primary px-2 py-0.5 font-display text-xs text-primary"
      >
        {t("toc.unlocked")}
      </span>
    );
  }
  if (chapter.status === "paid") {
    return (
      <span className="flex items-center gap-1 text-sm text-primary">
        <CoinIcon className="h-4 w-4" />
        {t("toc.coins", { count: chapter.coinsRequired })}
      </span>
    );
  }
  if (chapter.status === "early") {
    return (
      <span className="text-sm text-accent">
        {t("toc.early", { date: format.date(chapter.releaseAt, { month: "short", day: "numeric" }) })}
      </span>
    );
  }
  return <UpcomingRelease chapter={chapter} renderedAt={now} />;
}

/** The browser's time each second while `on`, until `until` has passed (then the last value stays). */
function useClock(on: boolean, until: number): number | undefined {
  const [now, setNow] = useState<number>();
  useEffect(() => {
    if (!on) return;
    const tick = () => {
      const time = Date.now();
      setNow(time);
      if (time >= until) clearInterval(timer);
    };
    const timer = setInterval(tick, 1000);
    tick();
    return () => clearInterval(timer);
  }, [on, until]);
  return now;
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/**
 * A locked chapter's release. The server writes the words alone, right without scripts and for every reader
 * of a kept page in that zone ("Releases today at 18:00"; the page is kept a minute at most). Within a day of
 * the release the browser adds "in 3 minutes", counted each second, and once the instant passes says the chapter is out.
 */
function UpcomingRelease({ chapter, renderedAt }: { chapter: BadgeChapter; renderedAt?: string }) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  // The zone useFormat writes in; asked for here rather than returned by useFormat, which the chapter page's
  // script carries.
  const timeZone = useTimeZone();
  const releaseAt = new Date(chapter.releaseAt);
  const rendered = renderedAt === undefined ? undefined : new Date(renderedAt);
  const soonWhenRendered =
    rendered !== undefined && releaseLabel(releaseAt, rendered, timeZone).kind !== "date";
  // Until hydration the render's time, so the browser's first render is the server's.
  const live = useClock(soonWhenRendered, releaseAt.getTime());
  const label = rendered
    ? releaseLabel(releaseAt, live === undefined ? rendered : new Date(live), timeZone)
    : undefined;
  if (label?.kind === "released") {
    return (
      <Link to={`/chapter/${chapter.number}`} className="text-sm font-semibold text-primary underline">
        {t("toc.outNow")}
      </Link>
    );
  }
  if (label?.kind === "soon") {
    const left = live === undefined ? undefined : countdown(releaseAt.getTime() - live);
    let relative = relativeFormats.get(i18n.language);
    if (!relative) {
      relative = new Intl.RelativeTimeFormat(i18n.language, { style: "long", numeric: "always" });
      relativeFormats.set(i18n.language, relative);
    }
    return (
      <span className="flex flex-col items-end text-sm text-muted">
        <span className="flex items-center gap-1">
          <LockIcon className="h-4 w-4" />
          <span>
            <Trans
              i18nKey={label.day === "today" ? "toc.releasesToday" : "toc.releasesTomorrow"}
              values={{ time: format.date(releaseAt, { timeStyle: "short" }) }}
              components={{ time: <time dateTime={releaseAt.toISOString()} /> }}
            />
          </span>
        </span>
        {left ? (
          <span data-countdown className="font-semibold text-accent">
            {relative.format(left.value, left.unit)}
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1 text-sm text-muted">
      <LockIcon className="h-4 w-4" />
      <time dateTime={releaseAt.toISOString()}>
        {t("toc.releases", { date: format.date(releaseAt, { month: "short", day: "numeric" }) })}
      </time>
    </span>
  );
}
