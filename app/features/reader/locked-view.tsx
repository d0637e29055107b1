import "~/i18n/full-catalogue";
import { useEffect } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { PaymentResult } from "~/features/payments/payment-result";
import { useRecheckWhilePending } from "~/features/payments/use-recheck-while-pending";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { LockIcon } from "~/ui/icons";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Lock } from "./access.server";

const GET_MORE_BELOW = 5;

/** What a reader sees instead of a chapter they may not read yet (never the text itself). */
export function LockedView({
  lock,
  chapter,
  volume,
  children,
}: {
  lock: Lock;
  chapter: number;
  /** The chapter's volume: a signed-in reader may unlock all of its locked chapters at once. */
  volume: number;
  /** More the page offers here (the route's "Notify me"). */
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const intent = navigation.state !== "idle" ? navigation.formData?.get("intent") : undefined;
  const unlocking = intent === "unlock" || intent === "buy-unlock";
  const payment = lock.kind === "coins" ? lock.payment : undefined;
  // A payment started here and not yet confirmed by the provider: look again until it is.
  useRecheckWhilePending(payment?.status === "pending" && !payment.cancelled);
  const moreCoins = `/coins?chapter=${chapter}`;
  // Answered to a prefetch, which spends nothing: now that the reader has reached the chapter, the server is
  // asked again, and their automatic unlocking applies (ADR 90).
  const auto = lock.kind === "coins" ? lock.auto : undefined;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (auto === "withheld") void revalidator.revalidate();
  }, [auto, chapter]);
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center gap-5 rounded-xl border border-line bg-[color:var(--surface)] px-6 py-10 text-center"
      aria-labelledby="locked-title"
    >
      <LockIcon className="h-10 w-10 text-primary" />
      {lock.kind === "release" ? (
        <>
          <h2 id="locked-title" className="font-display text-2xl text-primary">
            {t("readerPanels.locked.title")}
          </h2>
          <p>
            {t("readerPanels.locked.release", { date: format.date(lock.releaseAt, { dateStyle: "long" }) })}
          </p>
        </>
      ) : (
        <>
          {/* The spec's message already begins "Chapter Locked:", so it is the heading itself. */}
          <h2 id="locked-title" className="font-display text-xl text-primary">
            {t("readerPanels.locked.coins", { count: lock.coinsRequired })}
          </h2>
          {payment ? <PaymentResult payment={payment} cancelled={payment.cancelled} /> : null}
          {auto === "cap" || auto === "insufficient-coins" ? (
            <p role="status" className="text-sm">
              {t(auto === "cap" ? "readerPanels.locked.autoCap" : "readerPanels.locked.autoCoins")}
            </p>
          ) : null}
          {!lock.signedIn ? (
            <Link
              to={`/login?redirectTo=${encodeURIComponent(`/chapter/${chapter}`)}`}
              className={buttonClass("primary")}
            >
              {t("readerPanels.locked.login")}
            </Link>
          ) : lock.balance >= lock.coinsRequired ? (
            <Form method="post">
              <input type="hidden" name="intent" value="unlock" />
              <button type="submit" className={buttonClass("primary")} disabled={unlocking}>
                {t("readerPanels.locked.unlock", { count: lock.coinsRequired })}
              </button>
            </Form>
          ) : (
            <>
              {lock.offer ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="buy-unlock" />
                  <input type="hidden" name="packKey" value={lock.offer.packKey} />
                  <button type="submit" className={buttonClass("primary")} disabled={unlocking}>
                    {t("readerPanels.locked.buyAndUnlock", {
                      count: lock.offer.coins,
                      price: format.money(lock.offer.priceCents, lock.offer.currency),
                    })}
                  </button>
                </Form>
              ) : null}
              <Link to={moreCoins} className={buttonClass(lock.offer ? "outline" : "primary")}>
                {t("readerPanels.locked.getMoreCoins")}
              </Link>
            </>
          )}
          {lock.signedIn ? (
            <Link to={`/unlock/volume/${volume}`} className="text-primary underline underline-offset-2">
              {t("readerPanels.locked.unlockVolume", { number: volume })}
            </Link>
          ) : null}
          {lock.signedIn ? (
            <p className="text-sm text-muted">
              {t("readerPanels.locked.balance", { count: lock.balance })}
              {lock.balance < GET_MORE_BELOW ? (
                <>
                  {" · "}
                  <Link to={moreCoins} className="text-primary underline underline-offset-2">
                    {t("readerPanels.locked.getMore")}
                  </Link>
                </>
              ) : null}
            </p>
          ) : null}
        </>
      )}
      {children}
    </section>
  );
}
