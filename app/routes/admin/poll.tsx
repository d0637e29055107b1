import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { DigestFormResult } from "~/features/admin/digest-form";
import { ItemPage } from "~/features/admin/item-page";
import { deleteIntent, itemAnswers } from "~/features/admin/item-route.server";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  createPoll,
  deletePoll,
  getPollForEdit,
  imageChoices,
  savePoll,
} from "~/features/polls/editing.server";
import { optionFields, POLL_LIMITS } from "~/features/polls/limits";
import { pollSchema } from "~/features/polls/poll-form";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { instantAt, localMinute } from "~/lib/local-time";
import { Field, SelectField, useFormValidation } from "~/ui/form";
import type { Route } from "./+types/poll";

const fields = [
  "question",
  "opensLocal",
  "closesLocal",
  ...optionFields.flatMap((field) => [field.label, field.image]),
];

const DAY_MS = 24 * 60 * 60 * 1000;

export async function loader({ request, params }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const id = rowIdParam(params.id);
  const [found, images] = await Promise.all([id ? getPollForEdit(id) : undefined, imageChoices()]);
  if (id && !found) throw data(null, { status: 404 });
  const now = new Date();
  const options = found?.options ?? [];
  // An option's image stays offered even when it is no longer among the newest uploads.
  const own = options
    .filter((option) => !images.some((image) => image.id === option.uploadId))
    .map((option) => ({ id: option.uploadId, label: option.filename }));
  return {
    id,
    saved: new URL(request.url).searchParams.has("saved"),
    timeZone: author.timeZone,
    images: [...own, ...images],
    values: {
      question: found?.poll.question ?? "",
      opensLocal: localMinute(found?.poll.opensAt ?? now, author.timeZone),
      closesLocal: localMinute(found?.poll.closesAt ?? new Date(now.getTime() + 7 * DAY_MS), author.timeZone),
      ...Object.fromEntries(
        optionFields.flatMap((field, index) => [
          [field.label, options[index]?.label ?? ""],
          [field.image, options[index] ? String(options[index].uploadId) : ""],
        ]),
      ),
    } as Record<string, string>,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  const id = rowIdParam(params.id);
  const form = await readForm(request);
  if (form.get("intent") === "delete")
    return deleteIntent(id, form, {
      confirm: "admin.polls.errors.confirm",
      remove: (poll) => deletePoll(poll, actor),
      list: "/admin/polls",
    });
  const { refuse, saved: answerSaved } = itemAnswers(form, fields, { field: "question", max: 1000 });
  const parsed = parseForm(pollSchema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  const { opensLocal, closesLocal, ...rest } = parsed.data;
  // The author's wall-clock times, in their zone, as a goal's are read.
  const input = {
    ...rest,
    opensAt: instantAt(opensLocal, author.timeZone),
    closesAt: instantAt(closesLocal, author.timeZone),
  };
  if (input.closesAt <= input.opensAt) return refuse({ closesLocal: "admin.polls.errors.closes" });
  if (input.closesAt.getTime() - input.opensAt.getTime() > POLL_LIMITS.maxDays * DAY_MS)
    return refuse({ closesLocal: "admin.polls.errors.tooLong" });
  const saved = id === undefined ? await createPoll(input, actor) : await savePoll(id, input, actor);
  if (saved.ok) return answerSaved(`/admin/polls/${saved.id}`);
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  return refuse({ option0Image: "admin.polls.errors.image" });
}

/** A poll on art: the question, when it opens and closes, and two to eight options, each a label and an image. */
export default function AdminPoll({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(pollSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  return (
    <ItemPage
      texts="admin.polls"
      item={loaderData.id ? { title: loaderData.values.question ?? "" } : undefined}
      view={loaderData.id ? "/polls" : undefined}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      fields={
        <>
          <div className="sm:col-span-2">
            <Field
              name="question"
              label={t("admin.polls.question")}
              defaultValue={values.question}
              maxLength={POLL_LIMITS.question}
              error={errors.question}
            />
          </div>
          <Field
            name="opensLocal"
            type="datetime-local"
            label={t("admin.polls.opens")}
            hint={t("admin.polls.timeHint", { zone: loaderData.timeZone })}
            defaultValue={values.opensLocal}
            error={errors.opensLocal}
          />
          <Field
            name="closesLocal"
            type="datetime-local"
            label={t("admin.polls.closes")}
            hint={t("admin.polls.closesHint")}
            defaultValue={values.closesLocal}
            error={errors.closesLocal}
          />
        </>
      }
      after={
        <fieldset className="flex flex-col gap-4 rounded-xl border border-line p-4">
          <legend className="px-1 font-display text-sm tracking-wide">{t("admin.polls.options")}</legend>
          <p className="text-sm text-muted">{t("admin.polls.optionsHint")}</p>
          {optionFields.map((field, index) => (
            <div key={field.label} className="grid gap-3 sm:grid-cols-2">
              <Field
                name={field.label}
                label={t("admin.polls.optionLabel", { number: index + 1 })}
                defaultValue={values[field.label]}
                maxLength={POLL_LIMITS.label}
                error={errors[field.label]}
              />
              <SelectField
                name={field.image}
                label={t("admin.polls.optionImage", { number: index + 1 })}
                defaultValue={values[field.image] ?? ""}
                error={errors[field.image]}
              >
                <option value="">{t("admin.polls.imageNone")}</option>
                {loaderData.images.map((image) => (
                  <option key={image.id} value={image.id}>
                    {image.label}
                  </option>
                ))}
              </SelectField>
            </div>
          ))}
        </fieldset>
      }
    />
  );
}
