import { useNavigate } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";

/**
 * The full-page error fallback (docs/product-rules.md "Error screens"). Details go to the console only. `title`
 * and `body` replace the general texts (the outage screen's).
 */
export function ErrorScreen({
  onRetry,
  title,
  body,
}: {
  onRetry?: () => void;
  title?: string;
  body?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const heading = title ?? t("error.title");
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-6 px-6 text-center">
      <DocumentTitle name={heading} />
      <h1 className="font-display text-3xl text-primary">{heading}</h1>
      <p className="text-lg">{body ?? t("error.body")}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          className={buttonClass("primary")}
          onClick={() => (onRetry ? onRetry() : navigate(".", { replace: true }))}
        >
          {t("error.tryAgain")}
        </button>
        <Link to="/" className={buttonClass("outline")}>
          {t("error.goHome")}
        </Link>
      </div>
    </div>
  );
}

export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-6 px-6 text-center">
      <DocumentTitle name={t("notFound.title")} />
      <p className="font-display text-6xl text-primary">404</p>
      <h1 className="font-display text-3xl">{t("notFound.title")}</h1>
      <p className="text-lg">{t("notFound.body")}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass("primary")}>
          {t("error.goHome")}
        </Link>
        <Link to="/toc" className={buttonClass("outline")}>
          {t("notFound.toc")}
        </Link>
      </div>
    </div>
  );
}
