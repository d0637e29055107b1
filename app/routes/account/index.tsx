import "~/i18n/full-catalogue";
import { Form, useNavigation } from "react-router";
import { getDiscord } from "~/features/account/queries.server";
import { requireUser } from "~/features/auth/guards.server";
import { CoinHistory } from "~/features/coins/coin-history";
import { loadAccountPanels } from "~/features/dashboard/account.server";
import {
  AccountStats,
  ChaptersAhead,
  DashboardLinks,
  ReadingActivity,
  RecentActivity,
  StreakCard,
} from "~/features/dashboard/dashboard";
import { loadDashboardAndMembership } from "~/features/dashboard/queries.server";
import { perkPlaces } from "~/features/discord/perk-places.server";
import { AccountBooks } from "~/features/epub/account-books";
import { epubVolumes } from "~/features/epub/contents.server";
import { GiftHistory, SupporterPanel } from "~/features/fundraiser/supporter-panel";
import { MembershipSummary } from "~/features/membership/membership-summary";
import { PerkLinks } from "~/features/membership/perk-links";
import { perkLinks, perksOf } from "~/features/membership/perks";
import { membershipView } from "~/features/membership/queries.server";
import { OrderList } from "~/features/orders/order-list";
import { PurchaseHistory } from "~/features/payments/purchase-history";
import { useForgetReadingOnSignOut } from "~/features/reader/sign-out";
import { getSiteSettings } from "~/features/site/queries.server";
import { SubscriptionPanel } from "~/features/subscriptions/subscription-panel";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { keptForItsReader } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

/** Kept for the reader's session until anything of theirs changes (ADR 53). */
export const headers = keptForItsReader;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // A fixed number of statements, whatever the reader's history (ADR 31; tests/integration/dashboard.test.ts).
  const [{ dashboard, membership }, panels, discord, site, places, books] = await Promise.all([
    loadDashboardAndMembership(user.id, getPreferences(request).language),
    loadAccountPanels(user),
    getDiscord(user.id),
    getSiteSettings(),
    perkPlaces(),
    // The volumes for the EPUB downloads, from the chapter catalogue (no statement once it is kept).
    epubVolumes(),
  ]);
  return {
    dashboard,
    membership: membershipView(membership),
    perks: perkLinks(perksOf(membership.tier), places),
    purchases: panels.purchases.map((purchase) => ({
      ...purchase,
      createdAt: purchase.createdAt.toISOString(),
    })),
    orders: panels.orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
    coins: panels.coins.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
    user: {
      username: user.username,
      email: user.email,
      coinBalance: user.coinBalance,
      tier: membership.tier,
      memberSince: user.createdAt.toISOString(),
      hasPassword: user.hasPassword,
      // The way into the admin (this page is kept for this reader's session alone: ADR 53).
      author: user.role === "author",
    },
    discord,
    // The community invite of the site settings: the way in whether or not Discord sign-in is configured.
    community: { label: site.communityLabel, url: site.communityUrl },
    supporter: panels.supporter,
    subscription: panels.subscription,
    books,
  };
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const signOut = useForgetReadingOnSignOut();
  const navigation = useNavigation();
  const { user, discord, community, membership, purchases, dashboard } = loaderData;
  return (
    <div
      className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6"
      aria-busy={navigation.state !== "idle"}
    >
      <DocumentTitle name={t("account.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("account.title")}</h1>
      <Panel id="overview" title={t("account.overview")}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
          <dt className="text-muted">{t("auth.fields.username")}</dt>
          <dd>{user.username}</dd>
          <dt className="text-muted">{t("auth.fields.email")}</dt>
          <dd className="break-all">{user.email}</dd>
          <dt className="text-muted">{t("account.coins")}</dt>
          <dd data-testid="coin-balance">{format.number(user.coinBalance)}</dd>
          <dt className="text-muted">{t("account.tier")}</dt>
          <dd>{t(`tiers.${user.tier}`)}</dd>
          <dt className="text-muted">{t("account.memberSince")}</dt>
          <dd>{format.date(user.memberSince, { month: "long", year: "numeric" })}</dd>
          {discord ? (
            <>
              <dt className="text-muted">{t("oauth.providers.discord")}</dt>
              <dd data-testid="discord-username">
                {discord.username ? (
                  discord.username
                ) : (
                  <Link to="/settings#linked" className="text-primary underline underline-offset-2">
                    {t("oauth.account.link", { provider: t("oauth.providers.discord") })}
                  </Link>
                )}
              </dd>
            </>
          ) : null}
          <dt className="text-muted">{t("account.community")}</dt>
          <dd>
            <a
              href={community.url}
              rel="noopener noreferrer"
              className="text-primary underline underline-offset-2"
              data-testid="community-invite"
            >
              {community.label}
            </a>
          </dd>
        </dl>
        <div className="mt-6 flex flex-wrap gap-3">
          {user.author ? (
            <Link to="/admin" className={buttonClass("primary")}>
              {t("menu.admin")}
            </Link>
          ) : null}
          <Form method="post" action="/logout" onSubmit={signOut}>
            <button type="submit" className={buttonClass("outline")}>
              {t("menu.logout")}
            </button>
          </Form>
        </div>
      </Panel>
      <DashboardLinks />
      <Panel id="books" title={t("account.epub.title")}>
        <AccountBooks volumes={loaderData.books} />
      </Panel>
      <Panel id="streak" title={t("streaks.title")}>
        <StreakCard streak={dashboard.streak} />
      </Panel>
      <Panel id="activity" title={t("dashboard.activity.title")}>
        <ReadingActivity activity={dashboard.activity} />
      </Panel>
      <Panel id="ahead" title={t("dashboard.ahead.title")}>
        <ChaptersAhead ahead={dashboard.ahead} />
      </Panel>
      <Panel id="membership" title={t("membership.title")}>
        <div className="flex flex-col gap-4">
          <MembershipSummary membership={membership} currency="USD" />
          <PerkLinks links={loaderData.perks} heading={t("perks.heading")} />
        </div>
      </Panel>
      <Panel id="subscription" title={t("subscriptions.panelTitle")}>
        <SubscriptionPanel {...loaderData.subscription} />
      </Panel>
      <Panel id="stats" title={t("dashboard.stats.title")}>
        <AccountStats stats={dashboard.stats} />
      </Panel>
      <Panel id="recent" title={t("dashboard.recent.title")}>
        <RecentActivity recent={dashboard.recent} now={dashboard.now} />
      </Panel>
      <Panel id="orders" title={t("orders.title")}>
        <OrderList orders={loaderData.orders} />
      </Panel>
      <Panel id="supporter" title={t("supporters.account.title")}>
        <SupporterPanel data={loaderData.supporter} />
      </Panel>
      <Panel id="gifts" title={t("gifts.history.title")}>
        <GiftHistory gifts={loaderData.supporter.gifts} />
      </Panel>
      <Panel id="purchases" title={t("payments.history.title")}>
        <PurchaseHistory purchases={purchases} />
      </Panel>
      <Panel id="coins" title={t("coinHistory.title")}>
        <CoinHistory entries={loaderData.coins} />
      </Panel>
    </div>
  );
}
