import { useTranslation } from "~/i18n/react";
import { Skeleton } from "~/ui/skeleton";

/** Stands in for the table of contents while its data is on the way (never on a timer). */
export function TocSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14" aria-busy="true">
      <p className="sr-only" role="status">
        {t("common.loading")}
      </p>
      <Skeleton className="mx-auto mb-4 h-9 max-w-sm" />
      <Skeleton className="mx-auto mb-10 max-w-xl" />
      {[0, 1].map((volume) => (
        <div key={volume} className="mb-10 flex flex-col gap-2">
          <Skeleton className="mb-2 h-7 max-w-xs" />
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} variant="rectangular" className="h-16" />
          ))}
        </div>
      ))}
    </div>
  );
}
