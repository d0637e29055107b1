import "~/i18n/full-catalogue";
import { SupporterList } from "~/features/fundraiser/progress";
import { countSupporters, listSupporters } from "~/features/fundraiser/queries.server";
import { pageNumbers, parseWallQuery, WALL_PAGE_SIZE, wallHref } from "~/features/fundraiser/wall-page";
import { wallTiers } from "~/features/fundraiser/wall-tiers";
import { useTranslation } from "~/i18n/react";
import { canonicalPath } from "~/lib/seo";
import { shareablePage } from "~/lib/shareable";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/supporters";

export const headers = shareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const query = parseWallQuery(new URL(request.url).searchParams);
  const [total, supporters] = await Promise.all([
    countSupporters(query.tier),
    listSupporters({ limit: WALL_PAGE_SIZE, offset: (query.page - 1) * WALL_PAGE_SIZE, tier: query.tier }),
  ]);
  const pages = Math.max(1, Math.ceil(total / WALL_PAGE_SIZE));
  return { ...query, tier: query.tier ?? null, total, pages, supporters };
}

const chip =
  "inline-flex min-h-11 items-center rounded-full border border-line px-4 hover:border-primary aria-[current=page]:border-primary aria-[current=page]:bg-primary aria-[current=page]:text-on-primary";

export default function Supporters({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, tier, total, pages, supporters } = loaderData;
  const filter = tier ?? undefined;
  return (
    <Page
      title={t("supporters.heading")}
      intro={t("supporters.count", { count: total })}
      share={{
        description: t("supporters.count", { count: total }),
        path: canonicalPath(
          "/fundraiser/supporters",
          new URLSearchParams({ page: page > 1 ? String(page) : "", tier: tier ?? "" }),
          ["tier", "page"],
        ),
      }}
      eyebrow={<Link to="/fundraiser">{t("fundraiser.heading")}</Link>}
      width="max-w-5xl"
    >
      <nav aria-label={t("supporters.filterLabel")} className="mb-8">
        <ul className="flex flex-wrap justify-center gap-2">
          <li>
            <Link to={wallHref({ page: 1 })} className={chip} aria-current={filter ? undefined : "page"}>
              {t("supporters.allTiers")}
            </Link>
          </li>
          {wallTiers.map((value) => (
            <li key={value}>
              <Link
                to={wallHref({ page: 1, tier: value })}
                className={chip}
                aria-current={filter === value ? "page" : undefined}
              >
                {t(`supporters.tiers.${value}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {supporters.length ? (
        <SupporterList supporters={supporters} />
      ) : (
        <p className="text-center italic">{t("supporters.none")}</p>
      )}
      {pages > 1 ? (
        <nav aria-label={t("supporters.pagesLabel")} className="mt-8">
          <ul className="flex flex-wrap items-center justify-center gap-2">
            {page > 1 ? (
              <li>
                <Link to={wallHref({ page: page - 1, tier: filter })} rel="prev" className={chip}>
                  {t("supporters.previous")}
                </Link>
              </li>
            ) : null}
            {pageNumbers(page, pages).map((number, index) =>
              number === "gap" ? (
                <li key={`gap-${index}`} aria-hidden="true" className="px-1">
                  …
                </li>
              ) : (
                <li key={number}>
                  <Link
                    to={wallHref({ page: number, tier: filter })}
                    className={chip}
                    aria-current={number === page ? "page" : undefined}
                    aria-label={t("supporters.pageLabel", { page: number })}
                  >
                    {number}
                  </Link>
                </li>
              ),
            )}
            {page < pages ? (
              <li>
                <Link to={wallHref({ page: page + 1, tier: filter })} rel="next" className={chip}>
                  {t("supporters.next")}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </Page>
  );
}
