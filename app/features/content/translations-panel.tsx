import type { TranslationLanguage } from "#db/schema";
import { languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import type { TranslationMark } from "./translation-form";

const markClass: Record<TranslationMark, string> = {
  missing: "text-muted",
  current: "text-[#14532d] dark:text-[#bbf7d0]",
  stale: "font-semibold text-[#b42318] dark:text-[#ff8a80]",
};

/** A chapter's translations in the editor: each language's state, linked to its editor (ADR 93). */
export function TranslationsPanel({
  id,
  marks,
}: {
  id: number;
  marks: { language: TranslationLanguage; mark: TranslationMark }[];
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="translations-title" className="rounded-xl border border-line p-4">
      <h2 id="translations-title" className="font-display text-xl text-primary">
        {t("admin.translations.title")}
      </h2>
      <ul className="mt-2 flex flex-col divide-y divide-line" data-testid="translations">
        {marks.map(({ language, mark }) => (
          <li key={language} className="flex flex-wrap items-center justify-between gap-3 py-2">
            <Link
              to={`/admin/chapters/${id}/translations/${language}`}
              className="min-h-11 content-center underline"
            >
              {t(mark === "missing" ? "admin.translations.write" : "admin.translations.edit", {
                language: languageNames[language],
              })}
            </Link>
            <span className={`text-sm ${markClass[mark]}`} data-testid={`translation-${language}`}>
              {t(`admin.translations.marks.${mark}`)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
