import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { READER_LIMITS, readerActionSchema } from "~/features/account/reader-forms";
import {
  adjustCoins,
  getReaderForAdmin,
  grantMembershipDays,
  setSuspended,
} from "~/features/account/readers.server";
import { ConfirmedForm, type FormResult } from "~/features/admin/confirmed-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { parseId } from "~/lib/parse";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/reader";

function readerId(params: { id?: string }): number {
  const id = parseId(params.id);
  if (id === undefined) throw data(null, { status: 404 });
  return id;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const reader = await getReaderForAdmin(readerId(params));
  if (!reader) throw data(null, { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return { reader, done: ["coins", "membership", "suspend", "restore"].find((intent) => intent === done) };
}

type ActionResult = FormResult;

/** Adjusts coins, grants membership days, suspends or restores: each confirmed, with a reason, audited. */
export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const id = readerId(params);
  const form = await readForm(request);
  const intent = echoedValue(form, "intent", 20);
  const values = {
    delta: echoedValue(form, "delta", 12),
    days: echoedValue(form, "days", 12),
    note: echoedValue(form, "note"),
  };
  const parsed = parseForm(readerActionSchema, form);
  if (!parsed.ok) return data<ActionResult>({ intent, errors: parsed.errors, values }, 400);
  const actor = { via: "admin", userId: author.id } as const;
  const input = parsed.data;
  const outcome =
    input.intent === "coins"
      ? await adjustCoins(id, input.delta, input.note, actor)
      : input.intent === "membership"
        ? await grantMembershipDays(id, input.days, input.note, actor)
        : await setSuspended(id, input.intent === "suspend", input.note, actor);
  if (outcome.ok) return redirect(`/admin/readers/${id}?done=${input.intent}`);
  if (outcome.reason === "notFound") throw data(null, { status: 404 });
  const errors: Record<string, string> =
    outcome.reason === "negative"
      ? { delta: "admin.reader.errors.negative" }
      : { note: "admin.reader.errors.author" };
  return data<ActionResult>({ intent, errors, values }, 409);
}

export default function AdminReader({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { reader, done } = loaderData;
  const result = actionData as ActionResult | undefined;
  const mine = (intent: string) => (result?.intent === intent ? result : undefined);
  const date = (iso: string) => format.date(iso, { dateStyle: "medium" });
  const note = {
    label: t("admin.reader.note"),
    hint: t("admin.reader.noteHint"),
    maxLength: READER_LIMITS.note,
  };
  return (
    <>
      <DocumentTitle name={reader.username} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="min-w-0 break-all font-display text-3xl text-primary">{reader.username}</h1>
        <Link to="/admin/readers" className="underline">
          {t("admin.reader.back")}
        </Link>
      </div>
      {done && !result ? <FormNotice>{t(`admin.reader.done.${done}`)}</FormNotice> : null}
      <Panel id="account" title={t("admin.reader.account")}>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="text-muted">{t("admin.reader.email")}</dt>
          <dd className="break-all">{reader.email}</dd>
          <dt className="text-muted">{t("admin.reader.joined")}</dt>
          <dd>{date(reader.createdAt)}</dd>
          <dt className="text-muted">{t("admin.reader.balance")}</dt>
          <dd data-testid="reader-balance">{format.number(reader.coinBalance)}</dd>
          <dt className="text-muted">{t("admin.reader.tier")}</dt>
          <dd data-testid="reader-tier">
            {t(`tiers.${reader.membership.tier}`)} · {t(`admin.reader.sources.${reader.membership.source}`)}
            {reader.membership.until
              ? ` · ${t("admin.reader.until", { date: date(reader.membership.until) })}`
              : ""}
          </dd>
          <dt className="text-muted">{t("admin.reader.spent")}</dt>
          <dd>{format.money(reader.membership.totalSpentCents, "USD")}</dd>
          <dt className="text-muted">{t("admin.reader.sessions")}</dt>
          <dd>{format.number(reader.sessions)}</dd>
          <dt className="text-muted">{t("admin.reader.status")}</dt>
          <dd data-testid="reader-status">
            {reader.suspendedAt
              ? t("admin.reader.suspendedSince", { date: date(reader.suspendedAt) })
              : t("admin.reader.active")}
          </dd>
        </dl>
      </Panel>
      <Panel id="coins" title={t("admin.reader.coinsTitle")}>
        {mine("coins")?.errors?.delta === "admin.reader.errors.negative" ? (
          <FormAlert>{t("admin.reader.errors.negative", { count: reader.coinBalance })}</FormAlert>
        ) : null}
        <ConfirmedForm
          note={note}
          intent="coins"
          submit={t("admin.reader.adjust")}
          confirmLabel={t("admin.reader.confirmCoins")}
          result={result}
        >
          <Field
            name="delta"
            type="number"
            min={-READER_LIMITS.coins}
            max={READER_LIMITS.coins}
            label={t("admin.reader.delta")}
            hint={t("admin.reader.deltaHint")}
            defaultValue={mine("coins")?.values?.delta}
            error={
              mine("coins")?.errors?.delta === "admin.reader.errors.negative"
                ? undefined
                : mine("coins")?.errors?.delta
            }
            required
          />
        </ConfirmedForm>
        <h3 className="mt-6 font-display">{t("admin.reader.ledger")}</h3>
        <ul className="flex flex-col divide-y divide-line text-sm" data-testid="reader-ledger">
          {reader.ledger.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="flex flex-wrap justify-between gap-x-4 py-1">
              <span>
                {entry.delta > 0 ? `+${entry.delta}` : entry.delta} ·{" "}
                {t(`admin.reader.reasons.${entry.reason}`)}
                {entry.by ? ` · ${entry.by}` : ""}
                {entry.note ? ` · “${entry.note}”` : ""}
              </span>
              <time dateTime={entry.at} className="text-muted">
                {date(entry.at)}
              </time>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel id="membership" title={t("admin.reader.membershipTitle")}>
        <ConfirmedForm
          note={note}
          intent="membership"
          submit={t("admin.reader.grant")}
          confirmLabel={t("admin.reader.confirmDays")}
          result={result}
        >
          <Field
            name="days"
            type="number"
            min={1}
            max={READER_LIMITS.days}
            label={t("admin.reader.days")}
            defaultValue={mine("membership")?.values?.days}
            error={mine("membership")?.errors?.days}
            required
          />
        </ConfirmedForm>
      </Panel>
      <Panel id="records" title={t("admin.reader.records")}>
        <h3 className="font-display">{t("admin.reader.unlocks", { count: reader.unlocks.length })}</h3>
        <ul className="mb-4 text-sm">
          {reader.unlocks.map((unlock) => (
            <li key={unlock.number}>
              {t("admin.chapters.numbered", { number: unlock.number, title: unlock.title })} ·{" "}
              {t("admin.readers.coins", { count: unlock.coins })} · {date(unlock.at)}
            </li>
          ))}
        </ul>
        <h3 className="font-display">{t("admin.reader.orders", { count: reader.orders.length })}</h3>
        <ul className="mb-4 text-sm">
          {reader.orders.map((order) => (
            <li key={order.id}>
              #{order.id} · {t(`orders.statuses.${order.status}`)} ·{" "}
              {format.money(order.totalCents, order.currency)} · {date(order.at)}
            </li>
          ))}
        </ul>
        <h3 className="font-display">
          {t("admin.reader.subscriptions", { count: reader.subscriptions.length })}
        </h3>
        <ul className="text-sm">
          {reader.subscriptions.map((sub) => (
            <li key={`${sub.tier}-${sub.startedAt}`}>
              {t(`tiers.${sub.tier}`)} · {sub.status} · {date(sub.startedAt)}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel id="suspension" title={t("admin.reader.suspensionTitle")}>
        <p className="mb-3 text-sm text-muted">{t("admin.reader.suspensionHint")}</p>
        {reader.suspendedAt ? (
          <ConfirmedForm
            note={note}
            intent="restore"
            submit={t("admin.reader.restore")}
            confirmLabel={t("admin.reader.confirmRestore")}
            result={result}
          />
        ) : (
          <ConfirmedForm
            note={note}
            intent="suspend"
            submit={t("admin.reader.suspend")}
            confirmLabel={t("admin.reader.confirmSuspend")}
            result={result}
          />
        )}
      </Panel>
    </>
  );
}
