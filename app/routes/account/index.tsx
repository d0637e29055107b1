import "~/i18n/full-catalogue";
import { Form, redirect, useNavigation } from "react-router";
import { getLinkedProviders } from "~/features/account/queries.server";
import { changeEmail, changePassword, deleteAccount, FieldError } from "~/features/auth/commands.server";
import { CurrentPasswordField, EmailField, NewPasswordFields } from "~/features/auth/fields";
import { requireUser } from "~/features/auth/guards.server";
import { listConfiguredProviders } from "~/features/auth/oauth-providers.server";
import { type FormFailure, formFailure } from "~/features/auth/responses.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  parseForm,
} from "~/features/auth/schemas";
import { clearSessionCookie, revokeSessions } from "~/features/auth/session.server";
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
import { GiftHistory, SupporterPanel } from "~/features/fundraiser/supporter-panel";
import { MembershipSummary } from "~/features/membership/membership-summary";
import { membershipView } from "~/features/membership/queries.server";
import { OrderList } from "~/features/orders/order-list";
import { PurchaseHistory } from "~/features/payments/purchase-history";
import { useForgetReadingOnSignOut } from "~/features/reader/sign-out";
import { getSiteSettings } from "~/features/site/queries.server";
import { SubscriptionPanel } from "~/features/subscriptions/subscription-panel";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Checkbox, FormAlert, FormNotice, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [{ dashboard, membership }, panels, linked] = await Promise.all([
    loadDashboardAndMembership(user.id, getPreferences(request).language),
    loadAccountPanels(user),
    getLinkedProviders(user.id),
  ]);
  return {
    dashboard,
    membership: membershipView(membership),
    purchases: panels.purchases.map((purchase) => ({
      ...purchase,
      createdAt: purchase.createdAt.toISOString(),
    })),
    orders: panels.orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
    user: {
      username: user.username,
      email: user.email,
      coinBalance: user.coinBalance,
      tier: membership.tier,
      memberSince: user.createdAt.toISOString(),
      hasPassword: user.hasPassword,
    },
    linked,
    supporter: panels.supporter,
    subscription: panels.subscription,
    providers: listConfiguredProviders(),
  };
}

type ActionResult = FormFailure & { intent?: string; done?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const notice = { language: getPreferences(request).language, site: (await getSiteSettings()).title };
  try {
    if (intent === "changeEmail") {
      const parsed = parseForm(changeEmailSchema, form);
      if (!parsed.ok) return formFailure({ intent, errors: parsed.errors } as ActionResult);
      await changeEmail(user.id, parsed.data.email, parsed.data.currentPassword, notice);
      return { intent, done: "account.email.done" } satisfies ActionResult;
    }
    if (intent === "changePassword") {
      const parsed = parseForm(changePasswordSchema, form);
      if (!parsed.ok) return formFailure({ intent, errors: parsed.errors } as ActionResult);
      await changePassword(
        user.id,
        parsed.data.currentPassword,
        parsed.data.password,
        user.sessionId,
        notice,
      );
      return { intent, done: "account.password.done" } satisfies ActionResult;
    }
    if (intent === "signOutEverywhere") {
      await revokeSessions(user.id, undefined, context);
      return redirect("/", { headers: { "Set-Cookie": clearSessionCookie() } });
    }
    if (intent === "deleteAccount") {
      const parsed = parseForm(deleteAccountSchema, form);
      if (!parsed.ok) return formFailure({ intent, errors: parsed.errors } as ActionResult);
      await deleteAccount(user.id, parsed.data.currentPassword);
      return redirect("/", { headers: { "Set-Cookie": clearSessionCookie() } });
    }
  } catch (error) {
    if (error instanceof FieldError)
      return formFailure({ intent, errors: { [error.field]: error.messageKey } } as ActionResult);
    throw error;
  }
  return formFailure({ formError: "account.unknownAction" });
}

function useSection(intent: string, actionData: ActionResult | undefined) {
  const mine = actionData?.intent === intent ? actionData : undefined;
  return { errors: mine?.errors, done: mine?.done };
}

function EmailForm({
  actionData,
  email,
  hasPassword,
}: {
  actionData?: ActionResult;
  email: string;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  const section = useSection("changeEmail", actionData);
  const { errors, onSubmit } = useFormValidation(changeEmailSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      <input type="hidden" name="intent" value="changeEmail" />
      <EmailField label={t("account.email.new")} defaultValue={email} error={errors.email} />
      {hasPassword ? (
        <CurrentPasswordField error={errors.currentPassword} />
      ) : (
        <input type="hidden" name="currentPassword" value="-" />
      )}
      <button type="submit" className={buttonClass("outline", "self-start")}>
        {t("account.email.submit")}
      </button>
    </Form>
  );
}

function PasswordForm({ actionData }: { actionData?: ActionResult }) {
  const { t } = useTranslation();
  const section = useSection("changePassword", actionData);
  const { errors, onSubmit } = useFormValidation(changePasswordSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      <input type="hidden" name="intent" value="changePassword" />
      <CurrentPasswordField error={errors.currentPassword} />
      <NewPasswordFields errors={errors} label={t("auth.fields.newPassword")} />

      <button type="submit" className={buttonClass("outline", "self-start")}>
        {t("account.password.submit")}
      </button>
    </Form>
  );
}

function DeleteForm({ actionData, hasPassword }: { actionData?: ActionResult; hasPassword: boolean }) {
  const { t } = useTranslation();
  const section = useSection("deleteAccount", actionData);
  const { errors, onSubmit } = useFormValidation(deleteAccountSchema, section.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="deleteAccount" />
      <p>{t("account.delete.warning")}</p>
      {hasPassword ? <CurrentPasswordField error={errors.currentPassword} /> : null}
      <Checkbox name="confirm" label={t("account.delete.confirm")} error={errors.confirm} />
      <button
        type="submit"
        className={buttonClass("primary", "self-start bg-[#9b1030] text-white hover:bg-[#7a0c26]")}
      >
        {t("account.delete.submit")}
      </button>
    </Form>
  );
}

/** The providers linked to the account, and a button to link each configured one that is not. */
function LinkedAccounts({ linked, providers }: { linked: string[]; providers: ("discord" | "google")[] }) {
  const { t } = useTranslation();
  const linkable = providers.filter((provider) => !linked.includes(provider));
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{t("oauth.account.intro")}</p>
      {linked.length ? (
        <ul className="flex flex-col gap-1">
          {[...new Set(linked)].map((provider) => (
            <li key={provider}>
              {t("oauth.account.linked", { provider: t(`oauth.providers.${provider}`) })}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("oauth.account.none")}</p>
      )}
      {linkable.length ? (
        <div className="flex flex-wrap gap-3">
          {linkable.map((provider) => (
            <Form key={provider} method="post" action={`/auth/${provider}`} reloadDocument>
              <input type="hidden" name="redirectTo" value="/account" />
              <button type="submit" className={buttonClass("outline")}>
                {t("oauth.account.link", { provider: t(`oauth.providers.${provider}`) })}
              </button>
            </Form>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const signOut = useForgetReadingOnSignOut();
  const navigation = useNavigation();
  const { user, linked, providers, membership, purchases, dashboard } = loaderData;
  const result = actionData as ActionResult | undefined;
  return (
    <div
      className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6"
      aria-busy={navigation.state !== "idle"}
    >
      <DocumentTitle name={t("account.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("account.title")}</h1>
      {result?.formError ? <FormAlert>{t(result.formError)}</FormAlert> : null}
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
        </dl>
        <div className="mt-6 flex flex-wrap gap-3">
          <Form method="post" action="/logout" onSubmit={signOut}>
            <button type="submit" className={buttonClass("outline")}>
              {t("menu.logout")}
            </button>
          </Form>
          <Form method="post" onSubmit={signOut}>
            <input type="hidden" name="intent" value="signOutEverywhere" />
            <button type="submit" className={buttonClass("ghost")}>
              {t("account.signOutEverywhere")}
            </button>
          </Form>
        </div>
      </Panel>
      <DashboardLinks />
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
        <MembershipSummary membership={membership} currency="USD" />
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
      <Panel id="linked" title={t("oauth.account.title")}>
        <LinkedAccounts linked={linked} providers={providers} />
      </Panel>
      <Panel id="email" title={t("account.email.title")}>
        <EmailForm actionData={result} email={user.email} hasPassword={user.hasPassword} />
      </Panel>
      {user.hasPassword ? (
        <Panel id="password" title={t("account.password.title")}>
          <PasswordForm actionData={result} />
        </Panel>
      ) : null}
      <Panel id="data" title={t("account.data.title")}>
        <p className="mb-4">{t("account.data.text")}</p>
        <Link to="/account/data" reloadDocument className={buttonClass("outline")}>
          {t("account.data.download")}
        </Link>
      </Panel>
      <Panel id="delete" title={t("account.delete.title")}>
        <DeleteForm actionData={result} hasPassword={user.hasPassword} />
      </Panel>
    </div>
  );
}
