import "~/i18n/full-catalogue";
import { data, Form, redirect } from "react-router";
import {
  ANNOUNCEMENT_LIMITS,
  announcementSchema,
  deleteAnnouncementSchema,
} from "~/features/announcements/limits";
import {
  deleteAnnouncement,
  listAnnouncements,
  newsReaders,
  publishAnnouncement,
} from "~/features/announcements/store.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { randomToken } from "~/lib/tokens.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice, TextAreaField } from "~/ui/form";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/announcements";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const url = new URL(request.url);
  const [announcements, readers] = await Promise.all([listAnnouncements(), newsReaders()]);
  return {
    announcements,
    readers,
    // The publishing form's own key: sent twice, it publishes once (ADR 95).
    key: randomToken(),
    published: /^\d{1,9}$/.exec(url.searchParams.get("published") ?? "")?.[0],
    deleted: url.searchParams.get("deleted") === "1",
  };
}

type ActionResult = {
  errors?: Record<string, string>;
  values?: { title: string; bodyMd: string; key: string };
  deleteError?: string;
};

/** Publishes an announcement (and queues its e-mails), or deletes one: audited; the home page follows. */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const actor = { via: "admin", userId: author.id } as const;
  if (form.get("intent") === "delete") {
    const parsed = parseForm(deleteAnnouncementSchema, form);
    if (!parsed.ok || !(await deleteAnnouncement(parsed.data.id, actor)))
      return data<ActionResult>({ deleteError: "admin.announcements.errors.notFound" }, 404);
    await refreshContentRevision();
    return redirect("/admin/announcements?deleted=1");
  }
  const parsed = parseForm(announcementSchema, form);
  if (!parsed.ok)
    return data<ActionResult>(
      {
        errors: parsed.errors,
        values: {
          title: echoedValue(form, "title", ANNOUNCEMENT_LIMITS.title + 100),
          bodyMd: echoedValue(form, "bodyMd", ANNOUNCEMENT_LIMITS.body + 100),
          key: echoedValue(form, "key", ANNOUNCEMENT_LIMITS.key),
        },
      },
      400,
    );
  const published = await publishAnnouncement(parsed.data, actor);
  await refreshContentRevision();
  return redirect(`/admin/announcements?published=${published.queued}`);
}

/** The author's announcements: a form to publish one (shown on the home page, e-mailed once), and the list. */
export default function AdminAnnouncements({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const result = actionData as ActionResult | undefined;
  const errors = result?.errors ?? {};
  const values = result?.values;
  return (
    <>
      <DocumentTitle name={t("admin.announcements.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.announcements.title")}</h1>
      <p className="text-muted">{t("admin.announcements.intro")}</p>
      {loaderData.published !== undefined && !result ? (
        <FormNotice>{t("admin.announcements.published", { count: Number(loaderData.published) })}</FormNotice>
      ) : null}
      {loaderData.deleted && !result ? <FormNotice>{t("admin.announcements.deleted")}</FormNotice> : null}
      {result?.deleteError ? <FormAlert>{t(result.deleteError)}</FormAlert> : null}
      <section aria-labelledby="announcement-new" className="rounded-xl border border-line p-4 sm:p-6">
        <h2 id="announcement-new" className="mb-4 font-display text-xl">
          {t("admin.announcements.new")}
        </h2>
        <Form method="post" className="flex flex-col gap-4" key={values ? "refused" : loaderData.key}>
          <input type="hidden" name="key" value={values?.key || loaderData.key} />
          {errors.key ? <FormAlert>{t(errors.key)}</FormAlert> : null}
          <Field
            name="title"
            label={t("admin.announcements.titleField")}
            hint={t("admin.announcements.titleHint", { max: ANNOUNCEMENT_LIMITS.title })}
            defaultValue={values?.title ?? ""}
            maxLength={ANNOUNCEMENT_LIMITS.title}
            required
            error={errors.title}
          />
          <TextAreaField
            name="bodyMd"
            label={t("admin.announcements.body")}
            hint={t("admin.announcements.bodyHint", { max: format.number(ANNOUNCEMENT_LIMITS.body) })}
            defaultValue={values?.bodyMd ?? ""}
            maxLength={ANNOUNCEMENT_LIMITS.body}
            rows={6}
            required
            error={errors.bodyMd}
          />
          <p className="text-sm text-muted">
            {t("admin.announcements.readers", { count: loaderData.readers })}
          </p>
          <button type="submit" className={buttonClass("primary", "self-start")}>
            {t("admin.announcements.publish")}
          </button>
        </Form>
      </section>
      <section aria-labelledby="announcement-list" className="flex flex-col gap-3">
        <h2 id="announcement-list" className="font-display text-xl">
          {t("admin.announcements.list")}
        </h2>
        {loaderData.announcements.length ? (
          <ol className="flex flex-col divide-y divide-line" data-testid="admin-announcements">
            {loaderData.announcements.map((item) => (
              <li key={item.id} className="flex flex-col gap-2 py-4">
                <h3 className="font-display text-lg break-words">{item.title}</h3>
                <p className="flex flex-wrap gap-x-3 text-sm text-muted">
                  <time dateTime={item.publishedAt}>
                    {format.date(item.publishedAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                  {item.by ? <span>{item.by}</span> : null}
                  <span>{t("admin.announcements.mails", { sent: item.sent, waiting: item.waiting })}</span>
                </p>
                <p className="whitespace-pre-wrap break-words text-sm">{item.bodyMd}</p>
                <Form method="post" className="self-start">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={item.id} />
                  <button
                    type="submit"
                    className={buttonClass("outline")}
                    aria-label={t("admin.announcements.deleteOf", { title: item.title })}
                  >
                    {t("admin.announcements.delete")}
                  </button>
                </Form>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted">{t("admin.announcements.empty")}</p>
        )}
      </section>
    </>
  );
}
