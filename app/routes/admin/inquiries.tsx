import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { nextPagePath } from "~/features/admin/filters";
import { requireAuthor } from "~/features/auth/guards.server";
import { inquiryFilterSchema, inquiryStatusSchema, inquiryViews } from "~/features/inquiries/admin-form";
import { listInquiries, setInquiryStatus } from "~/features/inquiries/store.server";
import { languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/inquiries";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const url = new URL(request.url);
  const filter = inquiryFilterSchema.parse(Object.fromEntries(url.searchParams));
  const done = url.searchParams.get("done");
  return {
    ...(await listInquiries(filter)),
    filter,
    done: done === "answered" || done === "new" ? done : undefined,
  };
}

/** Marks an inquiry answered, or new again (ADR 59): audited; back to the same page of the list. */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const parsed = parseForm(inquiryStatusSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "admin.inquiries.errors.invalid" }, 400);
  const outcome = await setInquiryStatus(parsed.data.inquiry, parsed.data.status, {
    via: "admin",
    userId: author.id,
  });
  if (!outcome.ok) return data({ error: "admin.inquiries.errors.notFound" }, 404);
  const back = new URL(request.url);
  back.searchParams.set("done", parsed.data.status);
  return redirect(`/admin/inquiries?${back.searchParams}`);
}

/** The inquiries sent from products' Inquire forms, newest first, each with its status and the way to mark it. */
export default function AdminInquiries({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { inquiries, next, filter, done } = loaderData;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <>
      <DocumentTitle name={t("admin.inquiries.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.inquiries.title")}</h1>
      <p className="text-muted">{t("admin.inquiries.intro")}</p>
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      {done && !error ? <FormNotice>{t(`admin.inquiries.done.${done}`)}</FormNotice> : null}
      <nav aria-label={t("admin.inquiries.views")} className="flex flex-wrap gap-2">
        {inquiryViews.map((view) => (
          <Link
            key={view}
            to={view === "all" ? "/admin/inquiries" : `/admin/inquiries?view=${view}`}
            aria-current={view === filter.view ? "page" : undefined}
            className={buttonClass(view === filter.view ? "primary" : "outline")}
          >
            {t(`admin.inquiries.view.${view}`)}
          </Link>
        ))}
      </nav>
      {inquiries.length ? (
        <ol className="flex flex-col divide-y divide-line" data-testid="admin-inquiries">
          {inquiries.map((inquiry) => (
            <li key={inquiry.id} className="flex flex-col gap-2 py-4">
              <article aria-labelledby={`inquiry-${inquiry.id}`} className="flex flex-col gap-2">
                <h2 id={`inquiry-${inquiry.id}`} className="font-display text-lg">
                  {t("admin.inquiries.heading", { name: inquiry.name, product: inquiry.productName })}
                </h2>
                <p className="flex flex-wrap items-baseline gap-x-3 text-sm">
                  <span
                    className={
                      inquiry.status === "new"
                        ? "rounded-full border border-accent px-2 text-accent"
                        : "rounded-full border border-line px-2 text-muted"
                    }
                  >
                    {t(`admin.inquiries.status.${inquiry.status}`)}
                  </span>
                  <a href={`mailto:${encodeURIComponent(inquiry.email)}`} className="break-all underline">
                    {inquiry.email}
                  </a>
                  <time dateTime={inquiry.createdAt} className="text-muted">
                    {format.date(inquiry.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                  <span className="text-muted">
                    {languageNames[inquiry.language as keyof typeof languageNames] ?? inquiry.language}
                  </span>
                  {inquiry.productId ? (
                    <Link to={`/shop/product/${inquiry.productId}`} className="underline">
                      {inquiry.productName}
                    </Link>
                  ) : null}
                </p>
                {/* The sender's words as text: React escapes them, and the line breaks they typed are kept. */}
                <p className="whitespace-pre-wrap break-words rounded-md border border-line p-3">
                  {inquiry.message}
                </p>
                <form method="post" className="self-start">
                  <input type="hidden" name="inquiry" value={inquiry.id} />
                  <input type="hidden" name="status" value={inquiry.status === "new" ? "answered" : "new"} />
                  <button
                    type="submit"
                    className={buttonClass(inquiry.status === "new" ? "primary" : "outline")}
                    aria-label={t(
                      inquiry.status === "new"
                        ? "admin.inquiries.markAnsweredOf"
                        : "admin.inquiries.markNewOf",
                      { name: inquiry.name },
                    )}
                  >
                    {t(inquiry.status === "new" ? "admin.inquiries.markAnswered" : "admin.inquiries.markNew")}
                  </button>
                </form>
              </article>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-muted">{t("admin.inquiries.none")}</p>
      )}
      {next ? (
        <Link
          to={nextPagePath(
            "/admin/inquiries",
            { view: filter.view === "all" ? undefined : filter.view },
            next,
          )}
          className={buttonClass("outline", "self-center")}
        >
          {t("admin.inquiries.more")}
        </Link>
      ) : null}
    </>
  );
}
