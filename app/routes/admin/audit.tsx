import "~/i18n/full-catalogue";
import { z } from "zod";
import { FilterForm, FilterText, nextPagePath } from "~/features/admin/filters";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { listAudit } from "~/features/audit/log.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/audit";

const filterSchema = z.object({
  action: z.string().trim().max(64).optional().catch(undefined),
  subject: z.string().trim().max(64).optional().catch(undefined),
  before: wholeNumber(1, 2_147_483_647).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const filter = filterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const log = await listAudit({
    action: filter.action || undefined,
    subjectType: filter.subject || undefined,
    before: filter.before,
  });
  return { ...log, filter };
}

/** A value of the log as short text: the before and after of a change are small objects. */
const shown = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value));

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { entries, next, filter } = loaderData;
  return (
    <>
      <DocumentTitle name={t("admin.audit.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.audit.title")}</h1>
      <FilterForm submit={t("admin.audit.filter")}>
        <FilterText label={t("admin.audit.action")} name="action" value={filter.action} maxLength={64} />
        <FilterText label={t("admin.audit.subject")} name="subject" value={filter.subject} maxLength={64} />
      </FilterForm>
      {entries.length ? (
        <ol className="flex flex-col divide-y divide-line" data-testid="audit-entries">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 py-3">
              <p>
                <span className="font-semibold">{entry.action}</span>{" "}
                <span className="text-muted">
                  {entry.subjectType} {entry.subjectId}
                </span>
              </p>
              <p className="text-sm text-muted">
                {entry.via === "cli"
                  ? t("admin.audit.byCommandLine")
                  : (entry.actor ?? t("admin.audit.byDeleted"))}{" "}
                ·{" "}
                <time dateTime={entry.createdAt}>
                  {format.date(entry.createdAt, { dateStyle: "medium", timeStyle: "medium" })}
                </time>
              </p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
                <dt className="text-muted">{t("admin.audit.before")}</dt>
                <dd className="break-all font-mono">{shown(entry.before)}</dd>
                <dt className="text-muted">{t("admin.audit.after")}</dt>
                <dd className="break-all font-mono">{shown(entry.after)}</dd>
              </dl>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-muted">{t("admin.audit.empty")}</p>
      )}
      {next ? (
        <Link
          to={nextPagePath("/admin/audit", { action: filter.action, subject: filter.subject }, next)}
          className={buttonClass("outline", "self-center")}
        >
          {t("admin.audit.older")}
        </Link>
      ) : null}
    </>
  );
}
