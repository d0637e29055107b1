import "~/i18n/full-catalogue";
import { data } from "react-router";
import { listOutbox, localOutboxAvailable } from "~/features/mail/outbox.server";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";
import { outboxHeaders } from "./headers";

export async function loader({ context }: Route.LoaderArgs) {
  if (!localOutboxAvailable(context)) throw data(null, { status: 404 });
  return { messages: await listOutbox() };
}

export const headers = outboxHeaders;

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { messages } = loaderData;
  return (
    <Page title={t("outbox.title")} intro={t("outbox.intro")} width="max-w-3xl">
      <meta name="robots" content="noindex" />
      {messages.length === 0 ? (
        <p className="text-center text-muted">{t("outbox.empty")}</p>
      ) : (
        <ol className="divide-y divide-line rounded-xl border border-line bg-[color:var(--surface)]">
          {messages.map((message) => (
            <li key={message.id}>
              <Link
                to={`/outbox/${message.id}`}
                className="block px-4 py-3 hover:bg-primary/5 focus-visible:outline-2"
              >
                <span className="block font-semibold break-words text-primary underline-offset-2 hover:underline">
                  {message.subject || t("outbox.noSubject")}
                </span>
                <span className="mt-1 flex flex-wrap gap-x-3 text-sm text-muted">
                  <span className="break-all">{message.to}</span>
                  {message.date ? (
                    <time dateTime={message.date}>
                      {format.date(message.date, { dateStyle: "medium", timeStyle: "medium" })}
                    </time>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
