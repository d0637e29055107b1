import "~/i18n/full-catalogue";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { listCoinPacksForAdmin } from "~/features/coins/coin-pack-editing.server";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/coins";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  const deleted = new URL(request.url).searchParams.get("deleted")?.slice(0, 40);
  return { packs: await listCoinPacksForAdmin(), deleted };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/** The coin packs in the order /coins shows them: coins, price, key and order, each a link to its form. */
export default function AdminCoins({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <DocumentTitle name={t("admin.coins.title")} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{t("admin.coins.title")}</h1>
        <Link to="/admin/coins/new" className={buttonClass("primary")}>
          {t("admin.coins.new")}
        </Link>
      </div>
      {loaderData.deleted ? (
        <FormNotice>{t("admin.coins.deleted", { key: loaderData.deleted })}</FormNotice>
      ) : null}
      <Panel id="coin-packs" title={t("admin.coins.packs", { count: loaderData.packs.length })}>
        {loaderData.packs.length === 0 ? (
          <p className="text-muted italic">{t("admin.coins.none")}</p>
        ) : (
          <ol className="flex flex-col divide-y divide-line" data-testid="admin-coin-packs">
            {loaderData.packs.map((pack) => (
              <li key={pack.key} className="flex flex-wrap items-baseline justify-between gap-x-4 py-2">
                <Link to={`/admin/coins/${pack.key}`} className="underline">
                  {t("admin.coins.packLabel", {
                    coins: format.number(pack.coins),
                    price: format.money(pack.priceCents, pack.currency),
                  })}
                </Link>
                <span className="text-sm text-muted">
                  <code>{pack.key}</code> · {t("admin.gallery.orderShort", { order: pack.sortOrder })}
                </span>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </>
  );
}
