import "~/i18n/full-catalogue";
import { data } from "react-router";
import type { EditorResult } from "~/features/admin/digest-form";
import { revalidateAfterConflict } from "~/features/admin/digest-form";
import { editorAction } from "~/features/admin/editor-action.server";
import { rowKeyParam } from "~/features/admin/route-params";
import { KeyField, RowEditor } from "~/features/admin/row-editor";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  createCoinPack,
  deleteCoinPack,
  getCoinPackForEdit,
  saveCoinPack,
} from "~/features/coins/coin-pack-editing.server";
import { COIN_PACK_LIMITS, coinPackCurrencies, coinPackSchema } from "~/features/coins/coin-pack-form";
import { useTranslation } from "~/i18n/react";
import { readForm } from "~/lib/forms";
import { Field, SelectField, useFormValidation } from "~/ui/form";
import type { Route } from "./+types/coin-pack";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const key = rowKeyParam(params.key, COIN_PACK_LIMITS.key);
  const pack = key ? await getCoinPackForEdit(key) : undefined;
  if (key && !pack) throw data(null, { status: 404 });
  const row = pack?.row;
  return {
    key,
    // Just saved (the action sends the author here with ?saved=1).
    saved: new URL(request.url).searchParams.has("saved"),
    base: pack?.base,
    values: {
      key: row?.key ?? "",
      coins: row ? String(row.coins) : "",
      priceCents: row ? String(row.priceCents) : "",
      currency: row?.currency ?? "USD",
      description: row?.description ?? "",
      order: String(row?.sortOrder ?? 0),
    },
  };
}

export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  return editorAction(await readForm(request), {
    id: rowKeyParam(params.key, COIN_PACK_LIMITS.key),
    schema: coinPackSchema,
    fields: ["key", "coins", "priceCents", "currency", "description", "order"],
    echo: () => 700,
    key: {
      field: "key",
      of: (input) => input.key,
      invalid: "admin.coins.errors.key",
      taken: "admin.coins.errors.keyTaken",
    },
    confirmMessage: "admin.coins.errors.confirm",
    create: (input) => createCoinPack(input, actor),
    save: (key, input) => saveCoinPack(key, input, actor),
    remove: (key) => deleteCoinPack(key, actor),
    listPath: "/admin/coins",
    rowPath: (key) => `/admin/coins/${key}`,
  });
}

/** A coin pack: its key (set once), coins, price and currency, the line under the price, its order. */
export default function AdminCoinPack({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as EditorResult | undefined;
  const { errors, onSubmit } = useFormValidation(coinPackSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const exists = loaderData.key !== undefined;
  return (
    <RowEditor
      title={exists ? t("admin.coins.edit", { key: loaderData.key }) : t("admin.coins.new")}
      viewTo={exists ? "/coins" : undefined}
      base={loaderData.base}
      saved={loaderData.saved}
      result={result}
      onSubmit={onSubmit}
      submitLabel={exists ? t("admin.coins.save") : t("admin.coins.create")}
      deletion={
        exists ? { confirm: t("admin.coins.deleteConfirm"), button: t("admin.coins.delete") } : undefined
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <KeyField
          fixed={loaderData.key}
          name="key"
          label={t("admin.coins.key")}
          hint={t("admin.coins.keyHint")}
          value={values.key}
          maxLength={COIN_PACK_LIMITS.key}
          error={errors.key}
        />
        <Field
          name="coins"
          type="number"
          min={1}
          max={COIN_PACK_LIMITS.coins}
          label={t("admin.coins.coins")}
          defaultValue={values.coins}
          error={errors.coins}
        />
        <Field
          name="priceCents"
          type="number"
          min={COIN_PACK_LIMITS.minCents}
          max={COIN_PACK_LIMITS.maxCents}
          label={t("admin.coins.price")}
          hint={t("admin.coins.priceHint")}
          defaultValue={values.priceCents}
          error={errors.priceCents}
        />
        <SelectField
          name="currency"
          label={t("admin.coins.currency")}
          defaultValue={values.currency}
          error={errors.currency}
        >
          {/* An imported pack's other currency stays shown, so it is refused by name, never silently changed. */}
          {[...new Set([values.currency, ...coinPackCurrencies])].map((currency) => (
            <option key={currency} value={currency}>
              {currency}
            </option>
          ))}
        </SelectField>
        <Field
          name="description"
          label={t("admin.coins.description")}
          hint={t("admin.coins.descriptionHint")}
          defaultValue={values.description}
          maxLength={COIN_PACK_LIMITS.description}
          error={errors.description}
        />
        <Field
          name="order"
          type="number"
          min={-COIN_PACK_LIMITS.order}
          max={COIN_PACK_LIMITS.order}
          label={t("admin.coins.order")}
          hint={t("admin.coins.orderHint")}
          defaultValue={values.order}
          error={errors.order}
        />
      </div>
    </RowEditor>
  );
}
