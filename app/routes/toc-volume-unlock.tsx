import "~/i18n/full-catalogue";
import { data, Form, useNavigation } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { unlockVolume, volumeQuote } from "~/features/coins/volume-unlock.server";
import { useTranslation } from "~/i18n/react";
import { releaseTime } from "~/lib/clock.server";
import { readForm } from "~/lib/forms";
import { parseWholeNumber } from "~/lib/parse";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/toc-volume-unlock";

/** A volume number as the address gives it (as /toc/volume/N reads it): else the page is a 404. */
function volumeOf(params: { volume?: string }): number {
  const volume = parseWholeNumber(params.volume, 1, 999_999);
  if (volume === undefined) throw data(null, { status: 404 });
  return volume;
}

/** The confirmation step: the volume's locked coin chapters, their total price and the reader's balance. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const quote = await volumeQuote(user.id, volumeOf(params), releaseTime());
  if (!quote) throw data(null, { status: 404 });
  return {
    volume: quote.volume,
    chapters: quote.chapters.map(({ number, title, coinsRequired }) => ({ number, title, coinsRequired })),
    total: quote.total,
    balance: quote.balance,
  };
}

/** All or none (ADR 90), at the price the reader confirmed. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const volume = volumeOf(params);
  const form = await readForm(request);
  const total = parseWholeNumber(form.get("total"), 1, 1_000_000);
  if (total === undefined) return data({ error: "coins.volume.priceChanged" } as const, { status: 400 });
  const result = await unlockVolume(user.id, volume, total, releaseTime(), context);
  if (result.ok) return { done: { count: result.count, coins: result.coins } };
  const error = {
    "nothing-to-unlock": "coins.volume.nothingLeft",
    "price-changed": "coins.volume.priceChanged",
    "insufficient-coins": "coins.volume.insufficient",
  }[result.reason];
  return data({ error }, { status: 409 });
}

export default function VolumeUnlock({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { volume, chapters, total, balance } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const back = `/toc/volume/${volume.number}#volume-${volume.number}`;
  return (
    <Page
      title={t("coins.volume.title", { number: volume.number })}
      name={t("coins.volume.title", { number: volume.number })}
      intro={volume.title}
      width="max-w-xl"
    >
      {done ? (
        <div className="flex flex-col items-start gap-4">
          <p role="status">{t("coins.volume.done", { count: done.count, coins: done.coins })}</p>
          <Link to={back} className={buttonClass("primary")}>
            {t("coins.volume.back")}
          </Link>
        </div>
      ) : chapters.length === 0 ? (
        <div className="flex flex-col items-start gap-4">
          <p role="status">{t("coins.volume.nothingLeft")}</p>
          <Link to={back} className={buttonClass("outline")}>
            {t("coins.volume.back")}
          </Link>
        </div>
      ) : (
        <div className="flex flex-col gap-5">
          {error ? <FormAlert>{t(error)}</FormAlert> : null}
          <ul className="flex flex-col gap-1">
            {chapters.map((chapter) => (
              <li key={chapter.number} className="flex justify-between gap-4 border-b border-line py-2">
                <span>{t("toc.chapterTitle", { number: chapter.number, title: chapter.title })}</span>
                <span className="shrink-0 text-primary">
                  {t("toc.coins", { count: chapter.coinsRequired })}
                </span>
              </li>
            ))}
          </ul>
          <p className="font-display text-xl">{t("coins.volume.total", { count: total })}</p>
          <p className="text-sm text-muted">{t("readerPanels.locked.balance", { count: balance })}</p>
          {balance >= total ? (
            <Form method="post" className="flex flex-wrap gap-3">
              <input type="hidden" name="total" value={total} />
              <button type="submit" className={buttonClass("primary")} disabled={navigation.state !== "idle"}>
                {t("coins.volume.confirm", { count: chapters.length, coins: total })}
              </button>
              <Link to={back} className={buttonClass("outline")}>
                {t("coins.volume.cancel")}
              </Link>
            </Form>
          ) : (
            <div className="flex flex-col items-start gap-3">
              <p role="status">{t("coins.volume.insufficient")}</p>
              <Link to="/coins" className={buttonClass("primary")}>
                {t("readerPanels.locked.getMoreCoins")}
              </Link>
            </div>
          )}
        </div>
      )}
    </Page>
  );
}
