import { type Language, languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { localizedPath } from "~/i18n/urls";
import { Link } from "~/ui/link";

/**
 * Said above content shown in English on a page in another language (ADR 86): it is not translated yet, and
 * the versions there are, each at its language's URL, named in its own language.
 */
export function UntranslatedNote({ path, versions }: { path: string; versions: Language[] }) {
  const { t } = useTranslation();
  return (
    <p role="note" className="mb-6 rounded-md border border-border px-4 py-3 text-sm">
      {t("reader.untranslated")} <span>{t("reader.versions")}</span>{" "}
      {versions.map((language, index) => (
        <span key={language}>
          {index > 0 ? ", " : null}
          <Link to={localizedPath(language, path)} lang={language} hrefLang={language} className="underline">
            {languageNames[language]}
          </Link>
        </span>
      ))}
    </p>
  );
}
