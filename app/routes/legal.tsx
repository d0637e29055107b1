import "~/i18n/full-catalogue";
import { data } from "react-router";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { getLegalPage } from "~/features/site/queries.server";
import { shownIn, textField } from "~/features/translations/reading.server";
import { UntranslatedNote } from "~/features/translations/untranslated-note";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { shareablePage } from "~/lib/shareable";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/legal";

export const headers = shareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname === "/privacy" ? "privacy" : "terms";
  const page = await getLegalPage(slug);
  if (!page) throw data(null, { status: 404 });
  // The page in the reader's language where it is translated (ADR 86), else the original with a note.
  const { translated, untranslated } = await shownIn("legal", slug, getPreferences(request).language);
  return {
    title: textField(translated, "title", page.title),
    path: `/${slug}`,
    html: renderMarkdownCached(translated?.body || page.bodyMd),
    updatedAt: page.updatedAt.toISOString(),
    ...(untranslated ? { untranslated } : {}),
  };
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Page
      title={loaderData.title}
      width="max-w-3xl"
      intro={t("legal.updated", { date: format.date(loaderData.updatedAt) })}
      share={{
        description: `${loaderData.title}. ${t("legal.updated", { date: format.date(loaderData.updatedAt) })}`,
        path: loaderData.path,
      }}
    >
      {loaderData.untranslated ? (
        <UntranslatedNote path={loaderData.path} {...loaderData.untranslated} />
      ) : null}
      <div lang={loaderData.untranslated ? "en" : undefined}>
        <Prose html={loaderData.html} />
      </div>
    </Page>
  );
}
