import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";

/** A chapter that does not exist (or a draft, for anyone but its author): fetched by that page alone. */
export function ChapterNotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-6 px-6 text-center">
      <DocumentTitle name={t("reader.notFound")} />
      <h1 className="font-display text-3xl text-primary">{t("reader.notFound")}</h1>
      <Link to="/toc" className={buttonClass("primary")}>
        {t("notFound.toc")}
      </Link>
    </div>
  );
}
