import "~/i18n/full-catalogue";
import { data, Form } from "react-router";
import { requireAuthor } from "~/features/auth/guards.server";
import { formFailure } from "~/features/auth/responses.server";
import { clockSchema, MAX_READING_MOVE_SECONDS } from "~/features/site/clock-form";
import { moveReaderReading, moveReleaseClock } from "~/features/site/test-clock.server";
import { useTranslation } from "~/i18n/react";
import { clockOffsetMs, readersMovedOn, releaseTime, testClockEnabled } from "~/lib/clock.server";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { instantAt, localMinute } from "~/lib/local-time";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormNotice } from "~/ui/form";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/clock";

/** The test clock (ADR 39): an author's page only while the server runs with TEST_CLOCK=true, else a 404. */
async function requireTestClock(request: Request) {
  const author = await requireAuthor(request);
  if (!testClockEnabled()) throw data(null, { status: 404 });
  return author;
}

export async function loader({ request }: Route.LoaderArgs) {
  const author = await requireTestClock(request);
  const release = releaseTime();
  return {
    realTime: new Date().toISOString(),
    releaseTime: release.toISOString(),
    moved: clockOffsetMs() !== 0 || readersMovedOn() > 0,
    releaseLocal: localMinute(release, author.timeZone),
    timeZone: author.timeZone,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const author = await requireTestClock(request);
  const form = await readForm(request);
  // A refused form shows again with what was typed in it.
  const values = Object.fromEntries(
    ["releaseLocal", "readerEmail", "seconds"].map((name) => [name, echoedValue(form, name)]),
  );
  const parsed = parseForm(clockSchema, form);
  if (!parsed.ok) return formFailure({ errors: parsed.errors, values });
  const actor = { via: "admin", userId: author.id } as const;
  if (parsed.data.intent === "reading") {
    const { readerEmail, seconds } = parsed.data;
    if (!(await moveReaderReading(readerEmail, seconds, actor)))
      return formFailure({ errors: { readerEmail: "admin.clock.errors.reader" }, values });
    return { done: parsed.data.intent };
  }
  const time =
    parsed.data.intent === "set" ? instantAt(parsed.data.releaseLocal, author.timeZone) : undefined;
  await moveReleaseClock(time, actor);
  return { done: parsed.data.intent };
}

export default function AdminClock({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const result = actionData as
    | { done?: string; errors?: Record<string, string>; values?: Record<string, string> }
    | undefined;
  const typed = result?.values;
  const when = (iso: string) => format.date(iso, { dateStyle: "full", timeStyle: "short" });
  return (
    <>
      <DocumentTitle name={t("admin.clock.title")} />
      <h1 className="font-display text-3xl text-primary">{t("admin.clock.title")}</h1>
      <p className="text-muted">{t("admin.clock.intro")}</p>
      {result?.done ? <FormNotice>{t(`admin.clock.done.${result.done}`)}</FormNotice> : null}
      <Panel id="now" title={t("admin.clock.now")}>
        <dl className="grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-6">
          <dt className="text-muted">{t("admin.clock.release")}</dt>
          <dd>
            <time dateTime={loaderData.releaseTime} data-testid="release-time">
              {when(loaderData.releaseTime)}
            </time>
          </dd>
          <dt className="text-muted">{t("admin.clock.real")}</dt>
          <dd>
            <time dateTime={loaderData.realTime}>{when(loaderData.realTime)}</time>
          </dd>
        </dl>
      </Panel>
      <Panel id="move" title={t("admin.clock.move")}>
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="set" />
          <Field
            name="releaseLocal"
            type="datetime-local"
            label={t("admin.clock.to")}
            hint={t("admin.clock.zone", { zone: loaderData.timeZone })}
            defaultValue={typed?.releaseLocal || loaderData.releaseLocal}
            error={result?.errors?.releaseLocal}
            step={1}
            required
          />
          <button type="submit" className={buttonClass("primary", "self-start")}>
            {t("admin.clock.set")}
          </button>
        </Form>
        {loaderData.moved ? (
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="reset" />
            <button type="submit" className={buttonClass("outline")}>
              {t("admin.clock.reset")}
            </button>
          </Form>
        ) : null}
      </Panel>
      <Panel id="reading" title={t("admin.clock.reading.title")}>
        <p className="text-muted">{t("admin.clock.reading.intro")}</p>
        <Form method="post" className="mt-3 flex flex-col gap-3">
          <input type="hidden" name="intent" value="reading" />
          <Field
            name="readerEmail"
            type="email"
            label={t("admin.clock.reading.reader")}
            error={result?.errors?.readerEmail}
            defaultValue={typed?.readerEmail}
            maxLength={254}
            required
          />
          <Field
            name="seconds"
            type="number"
            label={t("admin.clock.reading.seconds")}
            error={result?.errors?.seconds}
            min={1}
            max={MAX_READING_MOVE_SECONDS}
            defaultValue={typed?.seconds || 60}
            required
          />
          <button type="submit" className={buttonClass("primary", "self-start")}>
            {t("admin.clock.reading.move")}
          </button>
        </Form>
      </Panel>
    </>
  );
}
