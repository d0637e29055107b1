import "~/i18n/full-catalogue";
import { z } from "zod";
import { searchReaders } from "~/features/account/readers.server";
import { FilterForm, FilterText, nextPagePath } from "~/features/admin/filters";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/readers";

const filterSchema = z.object({
  q: z.string().trim().max(254).optional().catch(undefined),
  before: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const filter = filterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return { ...(await searchReaders({ q: filter.q || undefined, before: filter.before })), filter };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The readers, newest first, found by username or e-mail (ADR 40). */
export default function AdminReaders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { readers, next, filter } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.readers.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.readers.title")}</h1>
      <FilterForm submit={t("admin.readers.search")}>
        <FilterText label={t("admin.readers.query")} name="q" value={filter.q} maxLength={254} />
      </FilterForm>
      {readers.length ? (
        <ul className="flex flex-col divide-y divide-line" data-testid="admin-readers">
          {readers.map((reader) => (
            <li
              key={reader.id}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
            >
              <Link to={`/admin/readers/${reader.id}`} className="underline">
                {reader.username}
              </Link>
              <span className="min-w-0 break-all text-sm text-muted">{reader.email}</span>
              <span className="text-sm text-muted">
                {t("admin.readers.coins", { count: reader.coinBalance })} ·{" "}
                {t("admin.readers.joined", { date: format.date(reader.createdAt, { dateStyle: "medium" }) })}
                {reader.role === "author" ? ` · ${t("admin.readers.author")}` : ""}
                {reader.suspended ? ` · ${t("admin.readers.suspended")}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted">{t("admin.readers.none")}</p>
      )}
      {next ? (
        <Link
          to={nextPagePath("/admin/readers", filter, next)}
          className={buttonClass("outline", "self-start")}
        >
          {t("admin.readers.more")}
        </Link>
      ) : null}
    </>
  );
}
