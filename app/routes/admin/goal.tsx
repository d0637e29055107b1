import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { DigestFormResult } from "~/features/admin/digest-form";
import { revalidateAfterConflict } from "~/features/admin/digest-form";
import { ItemPage } from "~/features/admin/item-page";
import { deleteIntent, itemAnswers } from "~/features/admin/item-route.server";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  createGoal,
  deleteGoal,
  getGoalForEdit,
  saveGoal,
} from "~/features/fundraiser/fundraiser-editing.server";
import {
  centsText,
  FUNDRAISER_LIMITS,
  goalPeriodChoices,
  goalSchema,
} from "~/features/fundraiser/fundraiser-form";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm } from "~/lib/forms";
import { instantAt, localMinute } from "~/lib/local-time";
import { Field, SelectField, TextAreaField, useFormValidation } from "~/ui/form";
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
  const id = rowIdParam(params.id);
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
      startsLocal: localMinute(row?.startsAt ?? new Date(), author.timeZone),
      endsLocal: row?.endsAt ? localMinute(row.endsAt, author.timeZone) : "",
    },
  };
}

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  const id = rowIdParam(params.id);
  const form = await readForm(request);
  if (form.get("intent") === "delete")
    return deleteIntent(id, form, {
      confirm: "admin.goals.errors.confirm",
      remove: async (goal) => (await deleteGoal(goal, actor))?.title,
      list: "/admin/goals",
    });
  const {
    refuse,
    conflict,
    saved: answerSaved,
  } = itemAnswers(form, fields, { field: "descriptionMd", max: 25_000 });
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
  if (saved.ok) return answerSaved(`/admin/goals/${saved.id}`);
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "titleTaken") return refuse({ title: "admin.goals.errors.titleTaken" }, 409);
  if (saved.reason === "endsBeforeStart") return refuse({ endsLocal: "admin.goals.errors.ends" });
  return conflict();
}

/** A fundraiser goal: title, description, period, target and currency, when it starts and ends. */
export default function AdminGoal({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as DigestFormResult | undefined;
  const { errors, onSubmit } = useFormValidation(goalSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  return (
    <ItemPage
      texts="admin.goals"
      item={loaderData.id ? { title: loaderData.values.title } : undefined}
      view="/fundraiser"
      base={loaderData.base}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      fields={
        <>
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
            hint={t("admin.goals.startsHint", { zone: loaderData.timeZone })}
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
        </>
      }
      after={
        <TextAreaField
          name="descriptionMd"
          label={t("admin.goals.description")}
          defaultValue={values.descriptionMd}
          rows={8}
          error={errors.descriptionMd}
        />
      }
    />
  );
}
