import "~/i18n/full-catalogue";
import { data } from "react-router";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { getLegalPage } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
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
  return {
    title: page.title,
    path: `/${slug}`,
    html: renderMarkdownCached(page.bodyMd),
    updatedAt: page.updatedAt.toISOString(),
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
      <Prose html={loaderData.html} />
    </Page>
  );
}
