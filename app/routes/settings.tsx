import { readForm } from "~/lib/forms";
import "~/i18n/full-catalogue";
import { redirect, useNavigation } from "react-router";
import {
  type ActionResult,
  DeleteForm,
  EmailForm,
  LinkedAccounts,
  PasswordForm,
} from "~/features/account/account-forms";
import { changeEmail, changePassword, deleteAccount, FieldError } from "~/features/auth/commands.server";
import { requireUser } from "~/features/auth/guards.server";
import { listConfiguredProviders } from "~/features/auth/oauth-providers.server";
import { formFailure } from "~/features/auth/responses.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  parseForm,
} from "~/features/auth/schemas";
import { clearSessionCookie, revokeSessions } from "~/features/auth/session.server";
import { parseDailyCap, saveAutoUnlock } from "~/features/coins/auto-unlock.server";
import { AutoUnlockForm } from "~/features/coins/auto-unlock-form";
import { DiscordSection } from "~/features/discord/discord-section";
import { outcomeFrom } from "~/features/discord/outcomes";
import { getDiscordSection } from "~/features/discord/queries.server";
import { createFeedToken, privateFeedPath, revokeFeedToken } from "~/features/feeds/private.server";
import { saveReadingSettings } from "~/features/reader/queries.server";
import { parseSettings } from "~/features/reading-settings/settings";
import { loadSettingsPanels } from "~/features/settings/panels.server";
import {
  revokeSession,
  saveEmailChoices,
  saveTimeZone,
  unlinkIdentity,
} from "~/features/settings/queries.server";
import { emailChoicesSchema, sessionSchema, timeZoneSchema, unlinkSchema } from "~/features/settings/schemas";
import {
  AppearanceForm,
  EmailChoicesForm,
  PrivateFeedForm,
  ReadingForm,
  SessionList,
  TimeZoneForm,
} from "~/features/settings/settings-forms";
import { timeZoneNames } from "~/features/settings/time-zones.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { useTranslation } from "~/i18n/react";
import { getEnv } from "~/lib/env.server";
import { canonicalTimeZone, getPreferences, readCookies } from "~/lib/preferences.server";
import { keptForItsReader } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { Panel } from "~/ui/page";
import type { Route } from "./+types/settings";

/** Kept for the reader's session until anything of theirs changes (ADR 53). */
export const headers = keptForItsReader;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [{ choices, sessions, linked, feed, secondFactors, autoUnlock }, discord] = await Promise.all([
    loadSettingsPanels(user),
    getDiscordSection(user.id),
  ]);
  const preferences = getPreferences(request);
  return {
    now: new Date().toISOString(),
    user: { email: user.email, hasPassword: user.hasPassword, isAuthor: user.role === "author" },
    secondFactors,
    reading: user.readingSettings,
    language: preferences.language,
    theme: preferences.theme,
    timeZone: {
      current: choices.timeZone,
      fixed: choices.timeZoneFixed,
      detected: canonicalTimeZone(readCookies(request).get("tz")) ?? null,
      zones: timeZoneNames(choices.timeZone),
    },
    emails: {
      newChapters: choices.newChapters,
      accountNotices: choices.accountNotices,
      qaPublished: choices.qaPublished,
      news: choices.news,
    },
    sessions,
    linked,
    providers: listConfiguredProviders(),
    feed,
    autoUnlock,
    discord: { ...discord, outcome: outcomeFrom(new URL(request.url).searchParams.get("discord")) },
  };
}

const signedOut = () => redirect("/", { headers: { "Set-Cookie": clearSessionCookie() } });

/** Each form posts its `intent`; the answer names it, so only that form shows its errors or notice. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const fail = (errors: Record<string, string>) => formFailure({ intent, errors } as ActionResult);
  const done = (key: string): ActionResult => ({ intent, done: key });
  const notice = { language: getPreferences(request).language, site: (await getSiteSettings()).title };
  try {
    switch (intent) {
      case "reading": {
        const settings = parseSettings(Object.fromEntries(form), user.readingSettings);
        if (!settings) return fail({ reading: "settings.reading.invalid" });
        await saveReadingSettings(user.id, settings);
        return done("settings.reading.done");
      }
      case "timeZone": {
        const parsed = parseForm(timeZoneSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        const chosen = parsed.data.timeZone;
        const zone = chosen ? canonicalTimeZone(chosen) : undefined;
        if (chosen && !zone) return fail({ timeZone: "settings.timeZone.unknown" });
        await saveTimeZone(user.id, zone, canonicalTimeZone(readCookies(request).get("tz")));
        return done("settings.timeZone.done");
      }
      case "emailChoices": {
        const parsed = parseForm(emailChoicesSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        await saveEmailChoices(user.id, parsed.data);
        return done("settings.emails.done");
      }
      case "revokeSession": {
        const parsed = parseForm(sessionSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        if (!(await revokeSession(user.id, parsed.data.session)))
          return fail({ session: "settings.sessions.unknown" });
        return parsed.data.session === user.sessionId ? signedOut() : done("settings.sessions.done");
      }
      case "signOutEverywhere":
        await revokeSessions(user.id, undefined, context);
        return signedOut();
      case "unlink": {
        const parsed = parseForm(unlinkSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        const outcome = await unlinkIdentity(user.id, parsed.data.provider);
        if (outcome === "lastSignIn") return fail({ provider: "settings.linked.lastSignIn" });
        if (outcome === "notLinked") return fail({ provider: "settings.linked.unknown" });
        return done("settings.linked.done");
      }
      case "changeEmail": {
        const parsed = parseForm(changeEmailSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        await changeEmail(user.id, parsed.data.email, parsed.data.currentPassword, notice);
        return done("account.email.done");
      }
      case "changePassword": {
        const parsed = parseForm(changePasswordSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        await changePassword(
          user.id,
          parsed.data.currentPassword,
          parsed.data.password,
          user.sessionId,
          notice,
        );
        return done("account.password.done");
      }
      case "feedToken": {
        const token = await createFeedToken(user.id);
        return {
          intent,
          done: "settings.feed.created",
          feedUrl: `${getEnv().origin}${privateFeedPath(token)}`,
        };
      }
      case "autoUnlock": {
        // Unlocking on arrival (ADR 90): the first "on" asks to confirm what it spends.
        const dailyCap = parseDailyCap(form.get("dailyCap"));
        if (dailyCap === undefined) return fail({ dailyCap: "settings.autoUnlock.capInvalid" });
        const enabled = form.get("enabled") === "on";
        const saved = await saveAutoUnlock(user.id, {
          enabled,
          dailyCap,
          confirmed: form.get("confirmed") === "1",
        });
        if (saved === "confirm") return { intent, confirmCap: dailyCap };
        return done(enabled ? "settings.autoUnlock.on" : "settings.autoUnlock.off");
      }
      case "feedTokenOff":
        await revokeFeedToken(user.id);
        return done("settings.feed.turnedOff");
      case "deleteAccount": {
        const parsed = parseForm(deleteAccountSchema, form);
        if (!parsed.ok) return fail(parsed.errors);
        await deleteAccount(user.id, parsed.data.currentPassword);
        return signedOut();
      }
    }
  } catch (error) {
    if (error instanceof FieldError) return fail({ [error.field]: error.messageKey });
    throw error;
  }
  return formFailure({ formError: "account.unknownAction" });
}

const sections = [
  "reading",
  "auto-unlock",
  "appearance",
  "time-zone",
  "emails",
  "feed",
  "sessions",
  "security",
  "linked",
  "discord",
  "email",
] as const;

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { user, timeZone } = loaderData;
  const result = actionData as (ActionResult & { confirmCap?: number }) | undefined;
  const showDiscord = Boolean(loaderData.discord.perk || loaderData.discord.invite);
  return (
    <div
      className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6"
      aria-busy={navigation.state !== "idle"}
    >
      <DocumentTitle name={t("settings.title")} />
      <h1 className="text-center font-display text-3xl text-primary">{t("settings.title")}</h1>
      <nav aria-label={t("settings.sections")} className="flex flex-wrap justify-center gap-x-4 gap-y-2">
        <Link to="/account" className="text-primary underline underline-offset-2">
          {t("settings.backToAccount")}
        </Link>
        {sections.map((id) =>
          (id === "linked" && !loaderData.providers.length) || (id === "discord" && !showDiscord) ? null : (
            <a key={id} href={`#${id}`} className="text-primary underline underline-offset-2">
              {t(`settings.nav.${id}`)}
            </a>
          ),
        )}
      </nav>
      {result?.formError ? <FormAlert>{t(result.formError)}</FormAlert> : null}
      <Panel id="reading" title={t("settings.reading.title")}>
        <ReadingForm saved={loaderData.reading} actionData={result} />
      </Panel>
      <Panel id="auto-unlock" title={t("settings.autoUnlock.title")}>
        <AutoUnlockForm {...loaderData.autoUnlock} actionData={result} />
      </Panel>
      <Panel id="appearance" title={t("settings.appearance.title")}>
        <AppearanceForm language={loaderData.language} theme={loaderData.theme} />
      </Panel>
      <Panel id="time-zone" title={t("settings.timeZone.title")}>
        <TimeZoneForm {...timeZone} actionData={result} />
      </Panel>
      <Panel id="emails" title={t("settings.emails.title")}>
        <EmailChoicesForm {...loaderData.emails} actionData={result} />
      </Panel>
      <Panel id="feed" title={t("settings.feed.title")}>
        <PrivateFeedForm active={loaderData.feed} actionData={result} />
      </Panel>
      <Panel id="sessions" title={t("settings.sessions.title")}>
        <SessionList sessions={loaderData.sessions} now={loaderData.now} actionData={result} />
      </Panel>
      <Panel id="security" title={t("twoFactor.settings.title")}>
        <p className="mb-4">
          {loaderData.secondFactors
            ? t("twoFactor.settings.summaryOn", { count: loaderData.secondFactors })
            : user.isAuthor
              ? t("twoFactor.settings.offAuthor")
              : t("twoFactor.settings.off")}
        </p>
        <Link to="/settings/security" className={buttonClass("outline")}>
          {t("twoFactor.settings.manage")}
        </Link>
      </Panel>
      {loaderData.providers.length ? (
        <Panel id="linked" title={t("oauth.account.title")}>
          <LinkedAccounts actionData={result} linked={loaderData.linked} providers={loaderData.providers} />
        </Panel>
      ) : null}
      {showDiscord ? (
        <Panel id="discord" title={t("discord.title")}>
          <DiscordSection data={loaderData.discord} outcome={loaderData.discord.outcome} />
        </Panel>
      ) : null}
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
