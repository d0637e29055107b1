import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listTranslatables } from "~/features/content/other-translations.server";
import { editorPath } from "~/features/content/translation-fields";
import { translationLanguages } from "~/features/translations/languages";
import { languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import type { Route } from "./+types/translations";

/** Everything but the chapters that a translation can hold, each with its languages' marks (ADR 98). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return { rows: await listTranslatables() };
}

export async function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

export default function AdminTranslations({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const kinds = [...new Set(loaderData.rows.map((row) => row.kind))];
  return (
    <>
      <DocumentTitle name={t("admin.otherTranslation.listTitle")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.otherTranslation.listTitle")}</h1>
      <p className="text-sm text-muted">{t("admin.otherTranslation.listIntro")}</p>
      {kinds.map((kind) => (
        <section key={kind} aria-labelledby={`kind-${kind}`} className="flex flex-col gap-2">
          <h2 id={`kind-${kind}`} className="font-display text-xl text-primary">
            {t(`admin.otherTranslation.kinds.${kind}`)}
          </h2>
          <ul className="flex flex-col divide-y divide-line">
            {loaderData.rows
              .filter((row) => row.kind === kind)
              .map((row) => (
                <li
                  key={row.key}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
                  data-testid={`translatable-${kind}-${row.key}`}
                >
                  <span className="min-w-0 break-words" lang="en">
                    {row.label}
                  </span>
                  <span className="flex flex-wrap gap-3 text-sm">
                    {translationLanguages.map((language) => (
                      <Link key={language} to={editorPath(kind, row.key, language)} className="underline">
                        {/* The item's name for a screen reader, which hears the link alone. */}
                        <span className="sr-only">{row.label}: </span>
                        {languageNames[language]}: {t(`admin.translations.marks.${row.marks[language]}`)}
                      </Link>
                    ))}
                  </span>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}
