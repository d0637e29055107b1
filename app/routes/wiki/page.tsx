import "~/i18n/full-catalogue";
import { data } from "react-router";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { wikiSectionSchema } from "~/features/content/schemas";
import { bodyText, shownIn, textField } from "~/features/translations/reading.server";
import { UntranslatedNote } from "~/features/translations/untranslated-note";
import { getWikiPage } from "~/features/wiki/queries.server";
import { useTranslation } from "~/i18n/react";
import { isCleanText } from "~/lib/parse";
import { getPreferences } from "~/lib/preferences.server";
import { timelessShareablePage } from "~/lib/shareable";
import { breadcrumbs } from "~/lib/structured-data";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useSiteFacts } from "~/ui/page-meta";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/page";

export const headers = timelessShareablePage;

export async function loader({ request, params }: Route.LoaderArgs) {
  const section = wikiSectionSchema.safeParse(params.section);
  const page =
    section.success && isCleanText(params.slug, 200)
      ? await getWikiPage(section.data, params.slug)
      : undefined;
  if (!section.success || !page) throw data(null, { status: 404 });
  const { bodyMd, ...rest } = page;
  // The page in the reader's language where it is translated (ADR 86), else the original with a note.
  const { translated, untranslated } = await shownIn(
    "wiki",
    `${page.section}/${page.slug}`,
    getPreferences(request).language,
  );
  return {
    page: {
      ...rest,
      title: textField(translated, "title", page.title),
      summary: textField(translated, "summary", page.summary),
    },
    html: renderMarkdownCached(bodyText(translated, bodyMd)),
    ...(untranslated ? { untranslated } : {}),
  };
}

export default function WikiPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, html, untranslated } = loaderData;
  const site = useSiteFacts();
  const section = t(`wiki.sections.${page.section}.title`);
  const path = `/wiki/${page.section}/${page.slug}`;
  // What a visitor sees of the page (its summary, shown under its title), nothing a reveal would hold back.
  const share = {
    description: page.summary,
    path,
    type: "article" as const,
    jsonLd: {
      "@context": "https://schema.org",
      ...breadcrumbs([
        { name: t("wiki.heading"), url: `${site.origin}/wiki` },
        { name: section, url: `${site.origin}/wiki/${page.section}` },
        { name: page.title, url: `${site.origin}${path}` },
      ]),
    },
  };
  return (
    <Page
      share={share}
      width="max-w-3xl"
      eyebrow={<Link to={`/wiki/${page.section}`}>{t(`wiki.sections.${page.section}.title`)}</Link>}
      title={page.title}
      intro={page.summary}
    >
      {untranslated ? <UntranslatedNote path={path} {...untranslated} /> : null}
      <article className="flex flex-col gap-6" lang={untranslated ? "en" : undefined}>
        {page.imageUrl ? (
          <img src={page.imageUrl} alt="" width={400} height={400} className="mx-auto h-48 w-48 rounded-xl" />
        ) : null}
        <Prose html={html} />
      </article>
      <p className="mt-10 text-center">
        <Link to={`/wiki/${page.section}`} className="text-primary underline underline-offset-2">
          {t("wiki.backToSection", { section: t(`wiki.sections.${page.section}.title`) })}
        </Link>
      </p>
    </Page>
  );
}
