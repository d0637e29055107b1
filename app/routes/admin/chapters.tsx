import "~/i18n/full-catalogue";
import { z } from "zod";
import { FilterForm, FilterSelect, FilterText } from "~/features/admin/filters";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  type AdminChapterStatus,
  listAdminChapters,
  listVolumes,
} from "~/features/chapters/admin-list.server";
import { useTranslation } from "~/i18n/react";
import { wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/chapters";

const statuses = ["draft", "scheduled", "published"] as const satisfies readonly AdminChapterStatus[];

/** The list's query: unknown or out-of-range values are dropped, never an error (it is a bookmarkable URL). */
const filterSchema = z.object({
  status: z.enum(statuses).optional().catch(undefined),
  volume: wholeNumber(1, 100_000).optional().catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
  page: wholeNumber(1, 10_000).optional().catch(undefined),
  /** The number of a chapter just deleted (the chapter page sends the author here). */
  deleted: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const filter = filterSchema.parse(query);
  const { deleted, ...listed } = filter;
  const [list, volumes] = await Promise.all([
    listAdminChapters({ ...listed, q: listed.q || undefined }),
    listVolumes(),
  ]);
  return { ...list, volumes, filter: listed, deleted };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

export default function AdminChapters({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { chapters, filter, volumes, total, page, pages } = loaderData;
  const pageLink = (to: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...filter, page: to }))
      if (value !== undefined && value !== "") params.set(key, String(value));
    return `/admin/chapters?${params}`;
  };
  return (
    <>
      <DocumentTitle name={t("admin.chapters.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.chapters.title")}</h1>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.chapter.deleted", { number: loaderData.deleted })}</FormNotice>
      ) : null}
      <FilterForm submit={t("admin.chapters.filter")}>
        <FilterText
          label={t("admin.chapters.search")}
          name="q"
          type="search"
          value={filter.q}
          maxLength={100}
        />
        <FilterSelect
          label={t("admin.chapters.status")}
          name="status"
          value={filter.status}
          any={t("admin.chapters.any")}
          options={statuses.map((status) => ({ value: status, label: t(`admin.status.${status}`) }))}
        />
        <FilterSelect
          label={t("admin.chapters.volume")}
          name="volume"
          value={filter.volume}
          any={t("admin.chapters.any")}
          options={volumes.map((volume) => ({
            value: volume.number,
            label: t("admin.chapters.volumeOption", { number: volume.number, title: volume.title }),
          }))}
        />
      </FilterForm>
      <Link to="/admin/chapters/new" className={buttonClass("primary", "self-start")}>
        {t("admin.chapters.new")}
      </Link>
      <p className="text-muted" data-testid="admin-chapter-total">
        {t("admin.chapters.count", { count: total })}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left">
          <thead>
            <tr className="border-b border-line text-sm text-muted">
              <th scope="col" className="py-2 pr-3">
                {t("admin.chapters.number")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("admin.chapters.chapterTitle")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("admin.chapters.status")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("admin.chapters.release")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("admin.chapters.words")}
              </th>
              <th scope="col" className="py-2 text-right">
                {t("admin.chapters.price")}
              </th>
            </tr>
          </thead>
          <tbody>
            {chapters.map((chapter) => (
              <tr key={chapter.id} className="border-b border-line" data-testid="admin-chapter">
                <td className="py-2 pr-3">{chapter.number}</td>
                <td className="py-2 pr-3">
                  <Link to={`/admin/chapters/${chapter.id}`} className="underline">
                    {chapter.title}
                  </Link>
                  <span className="block text-xs text-muted">
                    {t("admin.chapters.inVolume", { number: chapter.volume })}
                  </span>
                </td>
                <td className="py-2 pr-3">{t(`admin.status.${chapter.status}`)}</td>
                <td className="py-2 pr-3">
                  <time dateTime={chapter.releaseAt}>
                    {format.date(chapter.releaseAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                </td>
                <td className="py-2 pr-3 text-right">{format.number(chapter.wordCount)}</td>
                <td className="py-2 text-right">
                  {chapter.coinsRequired
                    ? t("admin.chapters.coins", { count: chapter.coinsRequired })
                    : t("admin.chapters.free")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label={t("admin.pagination")} className="flex items-center justify-center gap-3">
          {page > 1 ? (
            <Link to={pageLink(page - 1)} className={buttonClass("outline")}>
              {t("admin.previous")}
            </Link>
          ) : null}
          <span>{t("admin.pageOf", { page, pages })}</span>
          {page < pages ? (
            <Link to={pageLink(page + 1)} className={buttonClass("outline")}>
              {t("admin.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
