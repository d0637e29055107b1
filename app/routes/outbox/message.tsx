import "~/i18n/full-catalogue";
import { Fragment } from "react";
import { data } from "react-router";
import { localOutboxAvailable, readOutboxMessage } from "~/features/mail/outbox.server";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/message";
import { outboxHeaders } from "./headers";

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!localOutboxAvailable(context)) throw data(null, { status: 404 });
  const message = await readOutboxMessage(params.id);
  if (!message) throw data(null, { status: 404 });
  return { message };
}

export const headers = outboxHeaders;

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

/** The text part as text, its web links made clickable; the HTML part is never rendered (ADR 20). */
function TextWithLinks({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    parts.push(<Fragment key={`t${last}`}>{text.slice(last, match.index)}</Fragment>);
    parts.push(
      <a
        key={`a${match.index}`}
        href={match[0]}
        className="break-all text-primary underline underline-offset-2"
      >
        {match[0]}
      </a>,
    );
    last = match.index + match[0].length;
  }
  parts.push(<Fragment key="end">{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}

export default function OutboxMessage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = loaderData;
  const subject = message.subject || t("outbox.noSubject");
  return (
    <Page title={subject} eyebrow={t("outbox.title")} width="max-w-3xl">
      <meta name="robots" content="noindex" />
      <article className="rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">{t("outbox.to")}</dt>
          <dd className="break-all">{message.to}</dd>
          <dt className="text-muted">{t("outbox.date")}</dt>
          <dd>
            {message.date ? (
              <time dateTime={message.date}>
                {format.date(message.date, { dateStyle: "medium", timeStyle: "medium" })}
              </time>
            ) : (
              "—"
            )}
          </dd>
        </dl>
        <div className="mt-4 border-t border-line pt-4 break-words whitespace-pre-wrap">
          {message.text ? (
            <TextWithLinks text={message.text} />
          ) : (
            <span className="text-muted">{t("outbox.noText")}</span>
          )}
        </div>
      </article>
      <p className="mt-6">
        <Link to="/outbox" className="text-primary underline underline-offset-2">
          {t("outbox.back")}
        </Link>
      </p>
    </Page>
  );
}
