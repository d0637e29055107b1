import "~/i18n/full-catalogue";
import { data, Form, useNavigation } from "react-router";
import { EmailField, FailureAlert } from "~/features/auth/fields";
import { answerInquiry, type InquiryFailure } from "~/features/inquiries/action.server";
import { INQUIRY_LIMITS, inquirySchema } from "~/features/inquiries/schema";
import { inquirableProduct } from "~/features/inquiries/send.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
import { parseId } from "~/lib/parse";
import { shareableIf } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormNotice, TextAreaField, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/inquire";

/** The Inquire form of a product priced 0 (ADR 26); any other product, or none, is a 404. */
async function productOr404(id: string) {
  const product = await inquirableProduct(parseId(id));
  if (!product) throw data(null, { status: 404 });
  return product;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const { id, name, imageUrl } = await productOr404(params.id);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { product: { id, name, imageUrl }, author: (await getSiteSettings()).author, sent };
}

/**
 * The form is the same for every visitor, so the page cache keeps it (with `?sent=1` as its own page:
 * features/page-cache/query.server.ts). A refusal's Retry-After reaches the browser on the document
 * response too.
 */
export const headers: Route.HeadersFunction = ({ actionHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : shareableIf(true);

export async function action({ params, request, context }: Route.ActionArgs) {
  return answerInquiry(request, await productOr404(params.id), context);
}

export default function Inquire({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { product, author, sent } = loaderData;
  const failure = actionData as InquiryFailure | undefined;
  const submitting = useNavigation().state === "submitting";
  const { errors, onSubmit } = useFormValidation(inquirySchema, failure?.errors);
  const title = t("inquiry.title", { product: product.name });
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <DocumentTitle name={title} />
      <p className="mb-6">
        <Link to={`/shop/product/${product.id}`} className="text-primary underline underline-offset-2">
          {t("inquiry.back", { product: product.name })}
        </Link>
      </p>
      <div className="flex items-center gap-4">
        <img
          src={product.imageUrl}
          alt=""
          width={80}
          height={80}
          className="size-16 shrink-0 rounded-lg border border-line object-cover sm:size-20"
        />
        <h1 className="font-display text-2xl text-primary sm:text-3xl">{title}</h1>
      </div>
      {sent ? (
        <div className="mt-8 flex flex-col gap-4">
          <FormNotice>{t("inquiry.sent", { author })}</FormNotice>
          <p>
            <Link to="/shop" className="text-primary underline underline-offset-2">
              {t("shop.backToShop")}
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="mt-4 text-muted">{t("inquiry.intro", { author })}</p>
          <Form method="post" noValidate onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
            <FailureAlert failure={failure} />
            <Field
              name="name"
              label={t("inquiry.fields.name")}
              autoComplete="name"
              required
              maxLength={INQUIRY_LIMITS.name}
              defaultValue={failure?.values.name}
              error={errors.name}
            />
            <EmailField defaultValue={failure?.values.email} error={errors.email} />
            <TextAreaField
              name="message"
              label={t("inquiry.fields.message")}
              hint={t("inquiry.fields.messageHint")}
              required
              rows={8}
              maxLength={INQUIRY_LIMITS.messageMax}
              defaultValue={failure?.values.message}
              error={errors.message}
            />
            <button type="submit" className={buttonClass("primary", "self-start")} disabled={submitting}>
              {t("inquiry.submit")}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
