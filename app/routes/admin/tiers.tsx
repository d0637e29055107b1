import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { DigestForm, type DigestFormResult, revalidateAfterConflict } from "~/features/admin/digest-form";
import { requireAuthor } from "~/features/auth/guards.server";
import { listTiersForEdit, saveTier } from "~/features/fundraiser/fundraiser-editing.server";
import { centsText, FUNDRAISER_LIMITS, isTierKey, tierSchema } from "~/features/fundraiser/fundraiser-form";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/tiers";

const fields = ["name", "amount", "perks", "pitch", "order"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const saved = new URL(request.url).searchParams.get("saved");
  const tiers = await listTiersForEdit();
  return {
    // Just saved (the action sends the author here with ?saved=<key>).
    saved: isTierKey(saved) ? saved : undefined,
    tiers: tiers.map(({ row, base }) => ({
      key: row.key,
      base,
      values: {
        name: row.name,
        amount: centsText(row.amountCents),
        perks: row.perks.join("\n"),
        pitch: row.pitch,
        order: String(row.sortOrder),
      },
    })),
  };
}

/** Which tier's form answered, and how. */
type ActionResult = DigestFormResult & { tier: string };

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const form = await readForm(request);
  const key = form.get("key");
  if (!isTierKey(key)) throw data(null, { status: 404 });
  const values = Object.fromEntries(
    fields.map((field) => [field, echoedValue(form, field, field === "perks" ? 3_000 : 600)]),
  );
  const refuse = (result: DigestFormResult, status: number) =>
    data<ActionResult>({ ...result, tier: key, values }, status);
  const parsed = parseForm(tierSchema, form);
  if (!parsed.ok) return refuse({ errors: parsed.errors }, 400);
  const saved = await saveTier(parsed.data, { via: "admin", userId: author.id });
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/tiers?saved=${key}#tier-${key}`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "priceOrder")
    return refuse({ errors: { amount: "admin.tiers.errors.priceOrder" } }, 409);
  return refuse({ conflict: true }, 409);
}

type TierView = Awaited<ReturnType<typeof loader>>["tiers"][number];

function TierForm({ tier, result }: { tier: TierView; result: DigestFormResult | undefined }) {
  const { t } = useTranslation();
  const { errors, onSubmit } = useFormValidation(tierSchema, result?.errors);
  const values = { ...tier.values, ...result?.values };
  const id = (field: string) => `${tier.key}-${field}`;
  return (
    <Panel id={`tier-${tier.key}`} title={t(`tiers.${tier.key}`)}>
      <DigestForm base={tier.base} result={result} onSubmit={onSubmit}>
        <input type="hidden" name="key" value={tier.key} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id={id("name")}
            name="name"
            label={t("admin.tiers.name")}
            hint={t("admin.tiers.nameHint")}
            defaultValue={values.name}
            maxLength={FUNDRAISER_LIMITS.tierName}
            error={errors.name}
          />
          <Field
            id={id("amount")}
            name="amount"
            inputMode="decimal"
            label={t("admin.tiers.amount")}
            hint={t("admin.tiers.amountHint")}
            defaultValue={values.amount}
            maxLength={20}
            error={errors.amount}
          />
          <Field
            id={id("order")}
            name="order"
            type="number"
            min={-FUNDRAISER_LIMITS.order}
            max={FUNDRAISER_LIMITS.order}
            label={t("admin.tiers.order")}
            defaultValue={values.order}
            error={errors.order}
          />
        </div>
        <TextAreaField
          id={id("perks")}
          name="perks"
          label={t("admin.tiers.perks")}
          hint={t("admin.tiers.perksHint")}
          defaultValue={values.perks}
          rows={6}
          error={errors.perks}
        />
        <TextAreaField
          id={id("pitch")}
          name="pitch"
          label={t("admin.tiers.pitch")}
          defaultValue={values.pitch}
          maxLength={FUNDRAISER_LIMITS.pitch}
          rows={3}
          error={errors.pitch}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {t("admin.tiers.save", { tier: t(`tiers.${tier.key}`) })}
        </button>
      </DigestForm>
    </Panel>
  );
}

/** The three support tiers, each its own form: name, monthly price, perks, pitch, order. */
export default function AdminTiers({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  return (
    <>
      <DocumentTitle name={t("admin.tiers.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.tiers.title")}</h1>
        <Link to="/fundraiser" className="underline">
          {t("admin.chapter.view")}
        </Link>
      </div>
      <p className="text-muted">{t("admin.tiers.intro")}</p>
      {loaderData.tiers.map((tier) => (
        <TierForm
          key={tier.key}
          tier={tier}
          result={
            result?.tier === tier.key
              ? result
              : !result && loaderData.saved === tier.key
                ? { saved: true }
                : undefined
          }
        />
      ))}
    </>
  );
}
