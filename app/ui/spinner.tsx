import { useTranslation } from "~/i18n/react";

/** The shared loading spinner (`.spinner` in app.css). Shown only while real work is in flight. */
export function Spinner({
  size = "md",
  text,
  fullScreen = false,
}: {
  size?: "sm" | "md" | "lg";
  text?: string;
  fullScreen?: boolean;
}) {
  const { t } = useTranslation();
  const label = text ?? t("common.loading");
  const body = (
    <div role="status" aria-live="polite" className="spinner">
      <span aria-hidden="true" className={`spinner-wheel spinner-${size}`} />
      <span className={size === "sm" ? "sr-only" : "text-base"}>{label}</span>
    </div>
  );
  if (!fullScreen) return body;
  return <div className="spinner-overlay">{body}</div>;
}
