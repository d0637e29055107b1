import "~/i18n/full-catalogue";
import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation, useRevalidator } from "react-router";
import { getSessionUser, requireUser } from "~/features/auth/session.server";
import { listCoinPacks } from "~/features/coins/queries.server";
import { CheckoutError, startCheckout } from "~/features/payments/checkout.server";
import { getOwnPayment } from "~/features/payments/queries.server";
import { buyCoinsSchema, paymentIdSchema } from "~/features/payments/schemas";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const url = new URL(request.url);
  const paymentId = paymentIdSchema.safeParse(url.searchParams.get("payment") ?? undefined);
  const payment = user && paymentId.success ? await getOwnPayment(user.id, paymentId.data) : undefined;
  return {
    packs: await listCoinPacks(),
    balance: user ? user.coinBalance : null,
    payment: payment && { status: payment.status, coins: payment.coins },
    cancelled: url.searchParams.has("cancelled"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = buyCoinsSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "payments.errors.unknownItem" }, { status: 400 });
  try {
    const { url } = await startCheckout(
      user,
      { kind: "coins", packKey: parsed.data.packKey },
      { ip: context.ip },
    );
    return redirect(url);
  } catch (error) {
    if (error instanceof CheckoutError) return data({ error: error.messageKey }, { status: error.status });
    throw error;
  }
}

function PaymentResult({
  payment,
  cancelled,
}: {
  payment: { status: string; coins: number } | undefined;
  cancelled: boolean;
}) {
  const { t } = useTranslation();
  if (!payment) return null;
  if (payment.status === "paid")
    return <FormNotice>{t("coins.result.paid", { count: payment.coins })}</FormNotice>;
  if (payment.status === "failed") return <FormAlert>{t("coins.result.declined")}</FormAlert>;
  if (payment.status === "pending")
    return <FormNotice>{t(cancelled ? "coins.result.cancelled" : "coins.result.pending")}</FormNotice>;
  return <FormNotice>{t("coins.result.reversed")}</FormNotice>;
}

/** While a returned payment waits for the provider's confirmation, looks again every two seconds (a minute at most). */
function useRecheckWhilePending(pending: boolean) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!pending) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries++;
      if (tries > 30) clearInterval(timer);
      else if (latest.current.state === "idle") void latest.current.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [pending]);
}

export default function Coins({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const busyPack = navigation.state !== "idle" ? navigation.formData?.get("packKey") : undefined;
  const { packs, balance, payment, cancelled } = loaderData;
  useRecheckWhilePending(payment?.status === "pending" && !cancelled);
  return (
    <Page title={t("coins.title")} intro={t("coins.intro")} width="max-w-4xl">
      <div className="mb-8 flex flex-col gap-4">
        <PaymentResult payment={payment ?? undefined} cancelled={cancelled} />
        {actionData?.error ? <FormAlert>{t(actionData.error)}</FormAlert> : null}
        {balance === null ? (
          <p className="text-center">
            <Link to="/login?redirectTo=/coins" className="text-primary underline underline-offset-2">
              {t("coins.signIn")}
            </Link>
          </p>
        ) : (
          <p className="text-center text-lg">
            {t("coins.balanceLabel")}{" "}
            <strong data-testid="coin-balance" className="font-display text-2xl text-primary">
              {format.number(balance)}
            </strong>
          </p>
        )}
      </div>
      <ul className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-4">
        {packs.map((pack) => (
          <li
            key={pack.key}
            className="flex flex-col items-center gap-3 rounded-xl border border-line bg-[color:var(--surface)] p-6 text-center"
          >
            <h2 className="font-display text-xl text-primary" id={`pack-${pack.key}`}>
              {t("coins.packName", { count: pack.coins })}
            </h2>
            <p className="text-2xl">{format.money(pack.priceCents, pack.currency)}</p>
            {pack.description ? <p className="text-sm text-muted">{pack.description}</p> : null}
            {balance !== null ? (
              <Form method="post" className="mt-auto w-full">
                <input type="hidden" name="packKey" value={pack.key} />
                <button
                  type="submit"
                  className={buttonClass("primary", "w-full")}
                  disabled={busyPack !== undefined}
                  aria-describedby={`pack-${pack.key}`}
                >
                  {busyPack === pack.key ? t("coins.buying") : t("coins.buy", { count: pack.coins })}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center text-sm text-muted">{t("coins.note")}</p>
    </Page>
  );
}
