import { readForm } from "~/lib/forms";
import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { ItemName } from "~/features/payments/item-name";
import { testAnswerSchema } from "~/features/payments/schemas";
import { answerTestCheckout, getTestCheckout } from "~/features/payments/test-checkout.server";
import { useTranslation } from "~/i18n/react";
import { isCleanText } from "~/lib/parse";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/test-checkout";

/** A session id as the test provider makes them; anything else is no session and never reaches a query. */
const isSessionId = (value: string) => isCleanText(value, 100);

/** The built-in test provider's hosted payment page (PAYMENT_PROVIDER=test). */
export async function loader({ params }: Route.LoaderArgs) {
  const payment = isSessionId(params.session) ? await getTestCheckout(params.session) : undefined;
  if (!payment) throw data(null, { status: 404 });
  return {
    item: {
      kind: payment.kind,
      coins: payment.coins,
      tierKey: payment.tierKey,
      description: payment.description,
    },
    amountCents: payment.amountCents,
    currency: payment.currency,
    open: payment.status === "pending" && !payment.expired,
    expired: payment.expired,
    back: payment.orderId
      ? `/orders/${payment.orderId}`
      : payment.kind === "subscription"
        ? "/fundraiser"
        : payment.chapterNumber
          ? `/chapter/${payment.chapterNumber}`
          : "/coins",
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const parsed = testAnswerSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ error: "payments.test.badAnswer" }, { status: 400 });
  const answered = isSessionId(params.session)
    ? await answerTestCheckout(params.session, parsed.data.decision, context)
    : undefined;
  if (!answered) throw data(null, { status: 404 });
  if (answered.expired) return data({ error: "orders.testExpired" }, { status: 409 });
  return redirect(answered.redirectTo);
}

export default function TestCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { item, amountCents, currency, open, expired, back } = loaderData;
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-6 px-4 py-10 sm:px-6">
      <p
        role="note"
        className="rounded-md border-2 border-dashed border-accent px-4 py-3 text-center font-display tracking-wide"
      >
        {t("payments.test.banner")}
      </p>
      <DocumentTitle name={t("payments.test.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("payments.test.title")}</h1>
      <section
        aria-labelledby="order"
        className="rounded-xl border border-line bg-[color:var(--surface)] p-6 text-center"
      >
        <h2 id="order" className="text-muted">
          {t("payments.test.order")}
        </h2>
        <p className="mt-2 text-xl">
          <ItemName item={item} />
        </p>
        <p className="mt-2 font-display text-3xl text-primary">{format.money(amountCents, currency)}</p>
      </section>
      {actionData?.error ? <FormNotice>{t(actionData.error)}</FormNotice> : null}
      {open ? (
        <Form method="post" className="flex flex-col gap-3 sm:flex-row">
          <p className="sr-only" id="test-explainer">
            {t("payments.test.explainer")}
          </p>
          <button
            type="submit"
            name="decision"
            value="approve"
            className={buttonClass("primary", "flex-1")}
            disabled={busy}
            aria-describedby="test-explainer"
          >
            {t("payments.test.approve")}
          </button>
          <button
            type="submit"
            name="decision"
            value="decline"
            className={buttonClass("outline", "flex-1")}
            disabled={busy}
            aria-describedby="test-explainer"
          >
            {t("payments.test.decline")}
          </button>
        </Form>
      ) : (
        <FormNotice>{t(expired ? "orders.testExpired" : "payments.test.answered")}</FormNotice>
      )}
      <p className="text-center text-sm text-muted">{t("payments.test.explainer")}</p>
      <p className="text-center">
        <Link to={back} className="text-primary underline underline-offset-2">
          {t("payments.test.back")}
        </Link>
      </p>
    </div>
  );
}
