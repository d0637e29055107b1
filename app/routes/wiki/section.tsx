import "~/i18n/full-catalogue";
import { data } from "react-router";
import { wikiSectionSchema } from "~/features/content/schemas";
import { listWikiPages } from "~/features/wiki/queries.server";
import { wikiListIn } from "~/features/wiki/translated.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { timelessShareablePage } from "~/lib/shareable";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/section";

export const headers = timelessShareablePage;

export async function loader({ request, params }: Route.LoaderArgs) {
  const section = wikiSectionSchema.safeParse(params.section);
  if (!section.success) throw data(null, { status: 404 });
  const pages = await wikiListIn(await listWikiPages(section.data), getPreferences(request).language);
  return { section: section.data, pages };
}

export default function WikiSection({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { section, pages } = loaderData;
  return (
    <Page
      eyebrow={<Link to="/wiki">{t("wiki.heading")}</Link>}
      title={t(`wiki.sections.${section}.title`)}
      intro={t(`wiki.sections.${section}.text`)}
      share={{ description: t(`wiki.sections.${section}.text`), path: `/wiki/${section}` }}
    >
      {pages.length === 0 ? (
        <p className="text-center italic">{t("wiki.empty")}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {pages.map((page) => (
            <li key={page.slug}>
              <Link
                to={`/wiki/${section}/${page.slug}`}
                className="flex h-full gap-4 rounded-xl border border-line bg-[color:var(--surface)] p-4 hover:border-primary"
              >
                {page.imageUrl ? (
                  <img
                    src={page.imageUrl}
                    alt=""
                    width={80}
                    height={80}
                    className="h-20 w-20 shrink-0 rounded-lg"
                  />
                ) : null}
                <span className="flex flex-col gap-1">
                  <span className="font-display text-lg text-primary" lang={page.lang}>
                    {page.title}
                  </span>
                  <span className="text-muted" lang={page.lang}>
                    {page.summary}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
