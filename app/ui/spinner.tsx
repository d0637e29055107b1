import { useTranslation } from "~/i18n/react";

const sizes = { sm: "h-4 w-4 border-2", md: "h-8 w-8 border-[3px]", lg: "h-14 w-14 border-4" } as const;

/** The shared loading spinner. Shown only while real work is in flight. */
export function Spinner({
  size = "md",
  text,
  fullScreen = false,
}: {
  size?: keyof typeof sizes;
  text?: string;
  fullScreen?: boolean;
}) {
  const { t } = useTranslation();
  const label = text ?? t("common.loading");
  const body = (
    <div role="status" aria-live="polite" className="flex flex-col items-center gap-3 text-muted">
      <span
        aria-hidden="true"
        className={`${sizes[size]} animate-spin rounded-full border-primary border-t-transparent motion-reduce:animate-none`}
      />
      <span className={size === "sm" ? "sr-only" : "text-base"}>{label}</span>
    </div>
  );
  if (!fullScreen) return body;
  return <div className="fixed inset-0 z-50 grid place-items-center bg-black/60">{body}</div>;
}
