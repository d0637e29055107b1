import { useTranslation } from "~/i18n/react";
import { CoinIcon, LockIcon } from "~/ui/icons";
import { useFormat } from "~/ui/use-format";
import type { TocChapter } from "./queries.server";

/** A chapter's access in words: free, its price, unlocked, or when it opens. The TOC and the home page. */
export function ChapterStatusBadge({
  chapter,
}: {
  chapter: Pick<TocChapter, "status" | "coinsRequired" | "releaseAt">;
}) {
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
  return (
    <span className="flex items-center gap-1 text-sm text-muted">
      <LockIcon className="h-4 w-4" />
      {t("toc.releases", { date: format.date(chapter.releaseAt, { month: "short", day: "numeric" }) })}
    </span>
  );
}
