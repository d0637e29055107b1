import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { DeleteForm } from "~/features/admin/delete-form";
import { DigestForm, type DigestFormResult, revalidateAfterConflict } from "~/features/admin/digest-form";
import { rowIdParam } from "~/features/admin/route-params";
import { requireAuthor } from "~/features/auth/guards.server";
import { ImageChoiceField } from "~/features/chapters/artwork-fields";
import {
  createProduct,
  deleteProduct,
  getProductForEdit,
  saveProduct,
} from "~/features/shop/product-editing.server";
import {
  PRODUCT_LIMITS,
  productCategoryChoices,
  productFields,
  productFormValues,
  productSchema,
  variantChoices,
} from "~/features/shop/product-form";
import { refreshContentRevision } from "~/features/site/revision.server";
import { artworkChoices } from "~/features/uploads/author-uploads.server";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Checkbox, Field, SelectField, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/product";

/** What the action answers: the digest form's result, or a deletion refused for the carts and orders. */
type ProductResult = DigestFormResult & { inUse?: { carts: number; orders: number } };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const id = rowIdParam(params.id);
  const [product, images] = await Promise.all([id ? getProductForEdit(id) : undefined, artworkChoices()]);
  if (id && !product) throw data(null, { status: 404 });
  const row = product?.row;
  return {
    id,
    // Just saved (the action sends the author here with ?saved=1).
    saved: new URL(request.url).searchParams.has("saved"),
    base: product?.base,
    stock: row?.stock,
    images,
    values: productFormValues(row),
  };
}

/**
 * After a conflict or a refused stock change (409) the page reads the product again, as it does after a
 * save: the form reopens from the product as it now is (its digest, the stock now), with what was typed kept.
 * React Router skips that by default after a 4xx.
 */
export const shouldRevalidate = revalidateAfterConflict;

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const actor = { via: "admin", userId: author.id } as const;
  const id = rowIdParam(params.id);
  const form = await readForm(request);
  if (form.get("intent") === "delete") {
    if (id === undefined) throw data(null, { status: 404 });
    if (form.get("confirm") !== "on")
      return data<ProductResult>({ errors: { confirm: "admin.products.errors.confirm" } }, 400);
    const deleted = await deleteProduct(id, actor);
    if (!deleted.ok && deleted.reason === "notFound") throw data(null, { status: 404 });
    if (!deleted.ok)
      return data<ProductResult>({ inUse: { carts: deleted.carts, orders: deleted.orders } }, 409);
    await refreshContentRevision();
    return redirect(`/admin/products?deleted=${encodeURIComponent(deleted.name)}`);
  }
  const values = Object.fromEntries(
    productFields.map((field) => [field, echoedValue(form, field, field === "descriptionMd" ? 30_000 : 500)]),
  );
  const refuse = (errors: Record<string, string>, status = 400) =>
    data<ProductResult>({ errors, values }, status);
  const parsed = parseForm(productSchema, form);
  if (!parsed.ok) return refuse(parsed.errors);
  const saved =
    id === undefined ? await createProduct(parsed.data, actor) : await saveProduct(id, parsed.data, actor);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/products/${saved.id}?saved=1`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "stockShort") return refuse({ stockChange: "admin.products.errors.stockShort" }, 409);
  if (saved.reason === "stockOver") return refuse({ stockChange: "admin.products.errors.stockOver" }, 409);
  return data<ProductResult>({ conflict: true, values }, 409);
}

/** A product of the shop: its name, text, price, category, membership days, stock, picture and options. */
export default function AdminProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const result = actionData as ProductResult | undefined;
  const { errors, onSubmit } = useFormValidation(productSchema, result?.errors);
  const values = { ...loaderData.values, ...result?.values };
  const title = loaderData.id
    ? t("admin.products.edit", { name: loaderData.values.name })
    : t("admin.products.new");
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {loaderData.id ? (
          <Link to={`/shop/product/${loaderData.id}`} className="underline">
            {t("admin.chapter.view")}
          </Link>
        ) : null}
      </div>
      <DigestForm
        base={loaderData.base}
        result={loaderData.saved && !result ? { saved: true } : result}
        onSubmit={onSubmit}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="name"
            label={t("admin.products.name")}
            defaultValue={values.name}
            maxLength={PRODUCT_LIMITS.name}
            error={errors.name}
          />
          <SelectField
            name="category"
            label={t("admin.products.category")}
            defaultValue={values.category}
            error={errors.category}
          >
            {productCategoryChoices.map((category) => (
              <option key={category} value={category}>
                {t(`shop.filters.${category}`)}
              </option>
            ))}
          </SelectField>
          <Field
            name="priceCents"
            type="number"
            min={0}
            max={PRODUCT_LIMITS.priceCents}
            label={t("admin.products.priceCents")}
            hint={t("admin.products.priceHint")}
            defaultValue={values.priceCents}
            error={errors.priceCents}
          />
          <Field
            name="currency"
            label={t("admin.products.currency")}
            hint={t("admin.products.currencyHint")}
            defaultValue={values.currency}
            maxLength={3}
            autoCapitalize="characters"
            error={errors.currency}
          />
          <Field
            name="membershipDays"
            type="number"
            min={0}
            max={PRODUCT_LIMITS.membershipDays}
            label={t("admin.products.membershipDays")}
            hint={t("admin.products.membershipHint")}
            defaultValue={values.membershipDays}
            error={errors.membershipDays}
          />
          {loaderData.id ? (
            <Field
              name="stockChange"
              type="number"
              min={-PRODUCT_LIMITS.stock}
              max={PRODUCT_LIMITS.stock}
              label={t("admin.products.stockChange")}
              hint={t("admin.products.stockChangeHint", { stock: format.number(loaderData.stock ?? 0) })}
              defaultValue={values.stockChange}
              error={errors.stockChange}
            />
          ) : (
            <Field
              name="stock"
              type="number"
              min={0}
              max={PRODUCT_LIMITS.stock}
              label={t("admin.products.stock")}
              defaultValue={values.stock}
              error={errors.stock}
            />
          )}
          <ImageChoiceField
            name="imageUrl"
            label={t("admin.products.image")}
            hint={t("admin.products.imageHint")}
            value={values.imageUrl}
            error={errors.imageUrl}
            images={loaderData.images}
            none={t("admin.products.imageChoose")}
          />
          <SelectField
            name="variantKind"
            label={t("admin.products.variants")}
            defaultValue={values.variantKind}
            error={errors.variantKind}
          >
            {variantChoices.map((kind) => (
              <option key={kind} value={kind}>
                {t(`admin.products.variantKinds.${kind}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="flex flex-col gap-3">
          <Checkbox
            name="requiresShipping"
            label={t("admin.products.requiresShipping")}
            defaultChecked={values.requiresShipping === "on"}
            error={errors.requiresShipping}
          />
          <Checkbox
            name="offersDedication"
            label={t("admin.products.offersDedication")}
            defaultChecked={values.offersDedication === "on"}
            error={errors.offersDedication}
          />
        </div>
        <TextAreaField
          name="descriptionMd"
          label={t("admin.products.description")}
          defaultValue={values.descriptionMd}
          rows={10}
          error={errors.descriptionMd}
        />
        <button type="submit" className={`${buttonClass("primary")} self-start`}>
          {loaderData.id ? t("admin.products.save") : t("admin.products.create")}
        </button>
      </DigestForm>
      {loaderData.id ? (
        <DeleteForm
          confirm={t("admin.products.deleteConfirm")}
          button={t("admin.products.delete")}
          error={result?.errors?.confirm}
          refusal={result?.inUse ? t("admin.products.inUse", result.inUse) : undefined}
        />
      ) : null}
    </>
  );
}
