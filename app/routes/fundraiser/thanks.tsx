import "~/i18n/full-catalogue";
import { data } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { getOwnSupportPayment } from "~/features/fundraiser/supporters.server";
import { paymentIdSchema } from "~/features/payments/schemas";
import { useRecheckWhilePending } from "~/features/payments/use-recheck-while-pending";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page, Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/thanks";

/** The page a supporter returns to from the provider: their own support payment only (others' are 404). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const id = paymentIdSchema.safeParse(url.searchParams.get("payment") ?? undefined);
  const payment = id.success ? await getOwnSupportPayment(user.id, id.data) : undefined;
  if (!payment) throw data({ error: "not-found" }, { status: 404 });
  const choice = payment.choice;
  return {
    payment: {
      id: payment.id,
      kind: payment.kind,
      status: payment.status,
      amountCents: payment.amountCents,
      currency: payment.currency,
      tierKey: payment.tierKey,
    },
    // The payer's own choice, shown back to them: their username when that is how they appear.
    choice: choice && {
      display: choice.display,
      name: choice.display === "username" ? user.username : choice.name,
      emoji: choice.emoji,
      message: choice.message,
    },
    cancelled: url.searchParams.has("cancelled"),
  };
}

export default function Thanks({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { payment, choice, cancelled } = loaderData;
  const pending = payment.status === "pending";
  useRecheckWhilePending(pending && !cancelled);
  const amount = format.money(payment.amountCents, payment.currency);
  const what =
    payment.kind === "gift"
      ? t("gifts.thanks.gift", { amount })
      : t("gifts.thanks.tier", { amount, tier: t(`supporters.tiers.${payment.tierKey ?? "gift"}`) });
  const title =
    payment.status === "paid"
      ? t("gifts.thanks.title")
      : payment.status === "failed" || cancelled
        ? t("gifts.thanks.notPaidTitle")
        : t("gifts.thanks.pendingTitle");
  return (
    <Page title={title} width="max-w-3xl">
      <div className="flex flex-col gap-6" aria-live="polite">
        {payment.status === "paid" ? <FormNotice>{t("gifts.thanks.paid", { what })}</FormNotice> : null}
        {payment.status === "failed" ? <FormAlert>{t("gifts.thanks.declined")}</FormAlert> : null}
        {pending ? (
          <FormNotice>
            {t(cancelled ? "gifts.thanks.cancelled" : "gifts.thanks.pending", { what })}
          </FormNotice>
        ) : null}
        {payment.status === "refunded" || payment.status === "disputed" ? (
          <FormNotice>{t("gifts.thanks.reversed")}</FormNotice>
        ) : null}
        {choice && (payment.status === "paid" || (pending && !cancelled)) ? (
          <Panel id="wall-choice" title={t("gifts.thanks.choiceTitle")}>
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
              <dt className="text-muted">{t("supporters.choice.display")}</dt>
              <dd className="break-words">
                {choice.display === "username" || choice.display === "name"
                  ? choice.name
                  : t(`supporters.choice.displays.${choice.display}`)}
              </dd>
              <dt className="text-muted">{t("supporters.choice.emoji")}</dt>
              <dd>{choice.emoji || t("supporters.choice.noEmoji")}</dd>
              <dt className="text-muted">{t("supporters.choice.message")}</dt>
              <dd className="break-words">{choice.message || "—"}</dd>
            </dl>
            <p className="mt-4 text-sm text-muted">{t("gifts.thanks.changeLater")}</p>
          </Panel>
        ) : null}
        <p className="flex flex-wrap gap-3">
          <Link to="/fundraiser" className={buttonClass("primary")}>
            {t("gifts.thanks.back")}
          </Link>
          <Link to="/account#supporter" className={buttonClass("outline")}>
            {t("gifts.thanks.account")}
          </Link>
        </p>
      </div>
    </Page>
  );
}
