import "~/i18n/full-catalogue";
import { listWikiSections } from "~/features/wiki/queries.server";
import { wikiListIn } from "~/features/wiki/translated.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { timelessShareablePage } from "~/lib/shareable";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/index";

export const headers = timelessShareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const sections = await listWikiSections();
  // Titles in the page's language where translated (ADR 86): one query for every section's pages.
  const pages = await wikiListIn(
    sections.flatMap((section) => section.pages),
    getPreferences(request).language,
  );
  return {
    sections: sections.map(({ section }) => ({
      section,
      pages: pages.filter((page) => page.section === section),
    })),
  };
}

export default function Wiki({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page
      title={t("wiki.heading")}
      intro={t("wiki.intro")}
      share={{ description: t("wiki.intro"), path: "/wiki" }}
    >
      <div className="grid gap-6 md:grid-cols-3">
        {loaderData.sections.map(({ section, pages }) => (
          <section
            key={section}
            aria-labelledby={`wiki-${section}`}
            className="flex flex-col gap-3 rounded-xl border border-line bg-[color:var(--surface)] p-6"
          >
            <h2 id={`wiki-${section}`} className="font-display text-xl">
              <Link to={`/wiki/${section}`} className="text-primary hover:underline">
                {t(`wiki.sections.${section}.title`)}
              </Link>
            </h2>
            <p className="text-muted">{t(`wiki.sections.${section}.text`)}</p>
            {pages.length === 0 ? (
              <p className="italic">{t("wiki.empty")}</p>
            ) : (
              <ul className="flex flex-col gap-1">
                {pages.map((page) => (
                  <li key={page.slug}>
                    <Link
                      to={`/wiki/${section}/${page.slug}`}
                      className="underline-offset-2 hover:underline"
                      lang={page.lang}
                    >
                      {page.title}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>
    </Page>
  );
}
