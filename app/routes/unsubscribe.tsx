import "~/i18n/full-catalogue";
import { data, Form } from "react-router";
import { unsubscribeTarget, unsubscribeWithToken } from "~/features/release-mails/subscription.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
import { readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/unsubscribe";

/**
 * The unsubscribe link of a release e-mail (ADR 45), working without signing in: the token is the credential.
 * GET only shows a button (mail scanners open links); POST turns the e-mails off, from that button or as a
 * mail program's one-click request (RFC 8058: `List-Unsubscribe=One-Click`, no cookies). A link that is not
 * one of ours is a translated 404.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const [target, site] = await Promise.all([unsubscribeTarget(params.token), getSiteSettings()]);
  if (!target) return data({ valid: false as const }, { status: 404 });
  return { valid: true as const, email: target.email, list: target.list, site: site.title };
}

export async function action({ request, params }: Route.ActionArgs) {
  // Whatever the body says (the page's form, or List-Unsubscribe=One-Click), a POST here means "stop".
  await readForm(request);
  const done = await unsubscribeWithToken(params.token);
  if (!done) return data({ valid: false as const }, { status: 404 });
  return { valid: true as const, done: done.email, list: done.list };
}

/** Live links: never kept by a cache, never indexed. */
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
});

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const settings = (
    <Link to="/settings#emails" className="text-primary underline underline-offset-2">
      {t("unsubscribe.settings")}
    </Link>
  );
  if (!loaderData.valid || actionData?.valid === false)
    return (
      <Page title={t("unsubscribe.invalidTitle")} width="max-w-xl">
        <meta name="robots" content="noindex" />
        <p className="mb-4">{t("unsubscribe.invalid")}</p>
        <p>{settings}</p>
      </Page>
    );
  // The author's news (ADR 95) or new chapters: the e-mail that carried the link says which.
  const news = loaderData.list === "news";
  return (
    <Page title={t(news ? "unsubscribe.newsTitle" : "unsubscribe.title")} width="max-w-xl">
      <meta name="robots" content="noindex" />
      {actionData && "done" in actionData ? (
        <p role="status" className="mb-4">
          {t(news ? "unsubscribe.newsDone" : "unsubscribe.done", { email: actionData.done })}
        </p>
      ) : (
        <Form method="post" className="mb-4 flex flex-col items-start gap-4">
          <p>
            {t(news ? "unsubscribe.newsBody" : "unsubscribe.body", {
              email: loaderData.email,
              site: loaderData.site,
            })}
          </p>
          <button type="submit" className={buttonClass("primary")}>
            {t("unsubscribe.confirm")}
          </button>
        </Form>
      )}
      <p>{settings}</p>
    </Page>
  );
}
