import { readForm } from "~/lib/forms";
import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { getKeptSessionUser } from "~/features/auth/session.server";
import { listCoinPacks } from "~/features/coins/queries.server";
import { CheckoutError, startCheckout } from "~/features/payments/checkout.server";
import { PaymentResult } from "~/features/payments/payment-result";
import { getOwnPayment } from "~/features/payments/queries.server";
import { buyCoinsSchema, fromChapterSchema, paymentIdSchema } from "~/features/payments/schemas";
import { useRecheckWhilePending } from "~/features/payments/use-recheck-while-pending";
import { bodyText, translationsOf } from "~/features/translations/reading.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  // The kept session (ADR 49): the balance the page cache names this page's group by (ADR 101). Any change of
  // the balance ends it (the account's row moves), so it is the balance of the last change this server saw.
  const user = await getKeptSessionUser(request);
  const url = new URL(request.url);
  const paymentId = paymentIdSchema.safeParse(url.searchParams.get("payment") ?? undefined);
  const payment = user && paymentId.success ? await getOwnPayment(user.id, paymentId.data) : undefined;
  const fromChapter = fromChapterSchema.safeParse(url.searchParams.get("chapter") ?? undefined);
  const packs = await listCoinPacks();
  // Each pack's blurb in the page's language where translated (ADR 86); coins and prices are the original's.
  const texts = await translationsOf(
    "coinPack",
    getPreferences(request).language,
    packs.map((pack) => pack.key),
  );
  const asked = ["payment", "chapter", "cancelled"].some((name) => url.searchParams.has(name));
  return data(
    {
      fromChapter: fromChapter.success ? fromChapter.data : null,
      packs: packs.map((pack) => ({ ...pack, description: bodyText(texts.get(pack.key), pack.description) })),
      balance: user ? user.coinBalance : null,
      payment: payment && { status: payment.status, coins: payment.coins },
      cancelled: url.searchParams.has("cancelled"),
    },
    // The same for every visitor, and for every reader with the same access and balance (ADR 101), but for a
    // payment's result or the way back to a chapter.
    { headers: shareableIf(!asked && (!user || user.role === "reader")) },
  );
}

export const headers = shareableIfLoaderSays;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const parsed = buyCoinsSchema.safeParse({ packKey: form.get("packKey") });
  if (!parsed.success) return data({ error: "payments.errors.unknownItem" }, { status: 400 });
  // Bought on the way from a locked chapter: the payer returns to it (a bad number is simply dropped).
  const chapter = fromChapterSchema.safeParse(form.get("chapter") ?? undefined);
  try {
    const { url } = await startCheckout(
      user,
      {
        kind: "coins",
        packKey: parsed.data.packKey,
        ...(chapter.success ? { from: { chapter: chapter.data, unlock: false } } : {}),
      },
      { ip: context.ip },
    );
    return redirect(url);
  } catch (error) {
    if (error instanceof CheckoutError) return data({ error: error.messageKey }, { status: error.status });
    throw error;
  }
}

export default function Coins({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const busyPack = navigation.state !== "idle" ? navigation.formData?.get("packKey") : undefined;
  const { packs, balance, payment, cancelled, fromChapter } = loaderData;
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
                {fromChapter ? <input type="hidden" name="chapter" value={fromChapter} /> : null}
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
      {fromChapter ? (
        <p className="mt-4 text-center">
          <Link to={`/chapter/${fromChapter}`} className="text-primary underline underline-offset-2">
            {t("coins.backToChapter", { number: fromChapter })}
          </Link>
        </p>
      ) : null}
    </Page>
  );
}
