import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { DeleteForm } from "~/features/admin/delete-form";
import { DigestForm, type DigestFormResult } from "~/features/admin/digest-form";
import { createGoal, deleteGoal, getGoalForEdit, saveGoal } from "~/features/admin/fundraiser-editing.server";
import {
  centsText,
  FUNDRAISER_LIMITS,
  goalPeriodChoices,
  goalSchema,
} from "~/features/admin/fundraiser-form";
import { deleteIntent, rowIdParam } from "~/features/admin/item-route.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { instantAt, wallClockInput } from "~/lib/local-time";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, SelectField, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/goal";

const fields = [
  "title",
  "descriptionMd",
  "period",
  "target",
  "currency",
  "startsLocal",
  "endsLocal",
] as const;

export async function loader({ request, params }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const id = rowIdParam(params);
  const goal = id ? await getGoalForEdit(id) : undefined;
  if (id && !goal) throw data(null, { status: 404 });
  const row = goal?.row;
  return {
    id,
    // Just saved (the action sends the author here with ?saved=1).
    saved: new URL(request.url).searchParams.has("saved"),
    base: goal?.base,
    timeZone: author.timeZone,
    values: {
      title: row?.title ?? "",
      descriptionMd: row?.descriptionMd ?? "",
      period: row?.period ?? "campaign",
      target: row ? centsText(row.targetCents) : "",
      currency: row?.currency ?? "USD",
      startsLocal: wallClockInput(row?.startsAt ?? new Date(), author.timeZone),
      endsLocal: row?.endsAt ? wallClockInput(row.endsAt, author.timeZone) : "",
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  const id = rowIdParam(params);
  const form = await readForm(request);
  if (form.get("intent") === "delete")
    return deleteIntent(id, form, {
      confirm: "admin.goals.errors.confirm",
      remove: async (goal) => (await deleteGoal(goal, actor))?.title,
      list: "/admin/goals",
    });
  const values = Object.fromEntries(
    fields.map((field) => [field, echoedValue(form, field, field === "descriptionMd" ? 25_000 : 300)]),
  );
  const refuse = (errors: Record<string, string>, status = 400) =>
    data<DigestFormResult>({ errors, values }, status);
  const parsed = parseForm(goalSchema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  const { startsLocal, endsLocal, ...rest } = parsed.data;
  // The author's wall-clock times, in their zone, as a chapter's release is read.
  const input = {
    ...rest,
    startsAt: instantAt(startsLocal, author.timeZone),
    endsAt: endsLocal ? instantAt(endsLocal, author.timeZone) : null,
  };
  const saved = id === undefined ? await createGoal(input, actor) : await saveGoal(id, input, actor);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/goals/${saved.id}?saved=1`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "titleTaken") return refuse({ title: "admin.goals.errors.titleTaken" }, 409);
  if (saved.reason === "endsBeforeStart") return refuse({ endsLocal: "admin.goals.errors.ends" });
  return data<DigestFormResult>({ conflict: true, values }, 409);
}

/** A fundraiser goal: title, description, period, target and currency, when it starts and ends. */
export default function AdminGoal({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(goalSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const title = loaderData.id
    ? t("admin.goals.edit", { title: loaderData.values.title })
    : t("admin.goals.new");
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        <Link to="/fundraiser" className="underline">
          {t("admin.chapter.view")}
        </Link>
      </div>
      <DigestForm
        base={loaderData.base}
        result={loaderData.saved && !result ? { saved: true } : result}
        onSubmit={onSubmit}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="title"
            label={t("admin.goals.goalTitle")}
            defaultValue={values.title}
            maxLength={FUNDRAISER_LIMITS.goalTitle}
            error={errors.title}
          />
          <SelectField
            name="period"
            label={t("admin.goals.period")}
            hint={t("admin.goals.periodHint")}
            defaultValue={values.period}
            error={errors.period}
          >
            {goalPeriodChoices.map((period) => (
              <option key={period} value={period}>
                {t(`admin.goals.periods.${period}`)}
              </option>
            ))}
          </SelectField>
          <Field
            name="target"
            inputMode="decimal"
            label={t("admin.goals.target")}
            hint={t("admin.goals.targetHint")}
            defaultValue={values.target}
            maxLength={20}
            error={errors.target}
          />
          <Field
            name="currency"
            label={t("admin.goals.currency")}
            hint={t("admin.goals.currencyHint")}
            defaultValue={values.currency}
            maxLength={3}
            autoCapitalize="characters"
            error={errors.currency}
          />
          <Field
            name="startsLocal"
            type="datetime-local"
            label={t("admin.goals.starts")}
            hint={t("admin.chapter.releaseHint", { zone: loaderData.timeZone })}
            defaultValue={values.startsLocal}
            required
            error={errors.startsLocal}
          />
          <Field
            name="endsLocal"
            type="datetime-local"
            label={t("admin.goals.ends")}
            hint={t("admin.goals.endsHint")}
            defaultValue={values.endsLocal}
            error={errors.endsLocal}
          />
        </div>
        <TextAreaField
          name="descriptionMd"
          label={t("admin.goals.description")}
          defaultValue={values.descriptionMd}
          rows={8}
          error={errors.descriptionMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {loaderData.id ? t("admin.goals.save") : t("admin.goals.create")}
        </button>
      </DigestForm>
      {loaderData.id ? (
        <DeleteForm
          error={result?.errors?.confirm}
          confirmLabel={t("admin.goals.deleteConfirm")}
          buttonLabel={t("admin.goals.delete")}
        />
      ) : null}
    </>
  );
}
