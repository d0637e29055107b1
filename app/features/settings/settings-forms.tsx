import { useEffect, useState } from "react";
import { Form } from "react-router";
import { type ActionResult, useSection } from "~/features/account/account-forms";
import { RelativeTime } from "~/features/dashboard/dashboard";
import { useForgetReadingOnSignOut } from "~/features/reader/sign-out";
import { ReadingChoices } from "~/features/reading-settings/options";
import { defaultSettings, type ReadingSettings } from "~/features/reading-settings/settings";
import { type Language, languageNames, languages } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Checkbox, FormAlert, FormNotice } from "~/ui/form";
import { useFormat } from "~/ui/use-format";
import type { Device } from "./device";

const selectClass =
  "min-h-11 w-full max-w-sm rounded-md border border-line bg-transparent px-3 py-2 text-ink dark:bg-[#1a1512]";

/** A form's notice or its form-level error, for the intent the action just answered. */
function SectionMessages({ intent, actionData }: { intent: string; actionData?: ActionResult }) {
  const { t } = useTranslation();
  const section = useSection(intent, actionData);
  const error = section.errors ? Object.values(section.errors)[0] : undefined;
  return (
    <>
      {section.done ? <FormNotice>{t(section.done)}</FormNotice> : null}
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
    </>
  );
}

/**
 * The chapter settings sheet's choices as a form, with a paragraph set in them: the preview follows
 * each click (with JavaScript), the form saves them to the account.
 */
export function ReadingForm({ saved, actionData }: { saved: ReadingSettings; actionData?: ActionResult }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(saved);
  useEffect(() => setSettings(saved), [saved]);
  return (
    <Form method="post" className="flex flex-col gap-5">
      <SectionMessages intent="reading" actionData={actionData} />
      <input type="hidden" name="intent" value="reading" />
      <ReadingChoices settings={settings} onChange={setSettings} />
      <figure className="rounded-md border border-line p-4">
        <figcaption className="mb-2 text-sm text-muted">{t("settings.reading.preview")}</figcaption>
        <p
          data-testid="reading-preview"
          style={{
            fontSize: `${settings.fontSize}px`,
            lineHeight: settings.lineHeight,
            fontFamily: `var(--font-reader-${settings.fontFamily})`,
            textAlign: settings.textAlign,
          }}
        >
          {t("settings.reading.sample")}
        </p>
      </figure>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={buttonClass("primary")}>
          {t("settings.reading.submit")}
        </button>
        <button type="button" className={buttonClass("ghost")} onClick={() => setSettings(defaultSettings)}>
          {t("readerPanels.settings.reset")}
        </button>
      </div>
    </Form>
  );
}

/**
 * Language and theme: the header's choices (cookies, through /preferences) in one form. The page comes
 * back whole in the new language, so the form reloads the document.
 */
export function AppearanceForm({ language, theme }: { language: Language; theme?: "light" | "dark" }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/preferences" reloadDocument className="flex flex-col gap-5">
      <input type="hidden" name="redirectTo" value="/settings#appearance" />
      <div className="flex flex-col gap-2">
        <label htmlFor="settings-lang" className="font-display text-sm tracking-wide">
          {t("settings.appearance.language")}
        </label>
        <select id="settings-lang" name="lang" defaultValue={language} className={selectClass}>
          {languages.map((code) => (
            <option key={code} value={code} lang={code}>
              {languageNames[code]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-display text-sm tracking-wide">{t("settings.appearance.theme")}</legend>
        {(["system", "light", "dark"] as const).map((value) => (
          <label key={value} className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name="theme"
              value={value}
              defaultChecked={(theme ?? "system") === value}
              className="h-5 w-5 accent-[color:var(--primary)]"
            />
            {t(`settings.appearance.themes.${value}`)}
          </label>
        ))}
      </fieldset>
      <button type="submit" className={buttonClass("primary", "self-start")}>
        {t("settings.appearance.submit")}
      </button>
    </Form>
  );
}

/**
 * The zone reading days are dated in: the browser's (detected by the server from its `tz` cookie, or here
 * when the cookie has not been set yet), or one the reader fixes.
 */
export function TimeZoneForm({
  current,
  fixed,
  detected,
  zones,
  actionData,
}: {
  current: string;
  fixed: boolean;
  detected: string | null;
  zones: string[];
  actionData?: ActionResult;
}) {
  const { t } = useTranslation();
  const [browserZone, setBrowserZone] = useState(detected);
  useEffect(() => {
    if (!detected) setBrowserZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
  }, [detected]);
  const zoneName = (zone: string) => zone.replaceAll("_", " ");
  return (
    <Form method="post" className="flex flex-col gap-4">
      <SectionMessages intent="timeZone" actionData={actionData} />
      <input type="hidden" name="intent" value="timeZone" />
      <p data-testid="time-zone-current">{t("settings.timeZone.current", { zone: zoneName(current) })}</p>
      <div className="flex flex-col gap-2">
        <label htmlFor="settings-time-zone" className="font-display text-sm tracking-wide">
          {t("settings.timeZone.label")}
        </label>
        <select
          id="settings-time-zone"
          name="timeZone"
          defaultValue={fixed ? current : ""}
          className={selectClass}
        >
          <option value="">
            {browserZone
              ? t("settings.timeZone.automatic", { zone: zoneName(browserZone) })
              : t("settings.timeZone.automaticUnknown")}
          </option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zoneName(zone)}
            </option>
          ))}
        </select>
        <p className="text-sm text-muted">{t("settings.timeZone.hint")}</p>
      </div>
      <button type="submit" className={buttonClass("primary", "self-start")}>
        {t("settings.timeZone.submit")}
      </button>
    </Form>
  );
}

export function EmailChoicesForm({
  newChapters,
  accountNotices,
  qaPublished,
  news,
  actionData,
}: {
  newChapters: boolean;
  accountNotices: boolean;
  qaPublished: boolean;
  news: boolean;
  actionData?: ActionResult;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex flex-col gap-4">
      <SectionMessages intent="emailChoices" actionData={actionData} />
      <input type="hidden" name="intent" value="emailChoices" />
      <Checkbox name="newChapters" label={t("settings.emails.newChapters")} defaultChecked={newChapters} />
      <Checkbox name="news" label={t("settings.emails.news")} defaultChecked={news} />
      <Checkbox
        name="accountNotices"
        label={t("settings.emails.accountNotices")}
        defaultChecked={accountNotices}
      />
      <Checkbox name="qaPublished" label={t("settings.emails.qaPublished")} defaultChecked={qaPublished} />
      <p className="text-sm text-muted">{t("settings.emails.always")}</p>
      <button type="submit" className={buttonClass("primary", "self-start")}>
        {t("settings.emails.submit")}
      </button>
    </Form>
  );
}

export type SessionRow = {
  id: number;
  current: boolean;
  device: Device;
  createdAt: string;
  lastSeenAt: string;
};

/** The account's sessions: the device each is on, when it began and was last seen, and a way to end it. */
export function SessionList({
  sessions,
  now,
  actionData,
}: {
  sessions: SessionRow[];
  now: string;
  actionData?: ActionResult;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const signOut = useForgetReadingOnSignOut();
  const device = ({ browser, os }: Device) =>
    browser && os
      ? t("settings.sessions.device", { browser, os })
      : (browser ?? os ?? t("settings.sessions.unknownDevice"));
  return (
    <div className="flex flex-col gap-4">
      <SectionMessages intent="revokeSession" actionData={actionData} />
      <ul className="flex flex-col divide-y divide-line">
        {sessions.map((session) => (
          <li
            key={session.id}
            data-testid="session"
            className="flex flex-wrap items-center justify-between gap-3 py-3"
          >
            <div className="flex flex-col">
              <span className="font-semibold">
                {device(session.device)}
                {session.current ? (
                  <span className="ml-2 rounded-full border border-primary px-2 text-xs text-primary">
                    {t("settings.sessions.thisDevice")}
                  </span>
                ) : null}
              </span>
              <span className="text-sm text-muted">
                {t("settings.sessions.since", { date: format.date(session.createdAt) })} ·{" "}
                {t("settings.sessions.lastSeen")} <RelativeTime at={session.lastSeenAt} now={now} />
              </span>
            </div>
            <Form method="post" onSubmit={session.current ? signOut : undefined}>
              <input type="hidden" name="intent" value="revokeSession" />
              <input type="hidden" name="session" value={session.id} />
              <button
                type="submit"
                className={buttonClass("outline")}
                aria-label={t("settings.sessions.signOutOne", { device: device(session.device) })}
              >
                {t("settings.sessions.signOut")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <Form method="post" onSubmit={signOut}>
        <input type="hidden" name="intent" value="signOutEverywhere" />
        <button type="submit" className={buttonClass("ghost")}>
          {t("account.signOutEverywhere")}
        </button>
      </Form>
    </div>
  );
}

/**
 * The private feed (ADR 44): make an address (shown once, to copy into a feed reader), make a new one
 * (the old stops working), or turn it off.
 */
export function PrivateFeedForm({ active, actionData }: { active: boolean; actionData?: ActionResult }) {
  const { t } = useTranslation();
  const url = actionData?.intent === "feedToken" ? actionData.feedUrl : undefined;
  return (
    <div className="flex flex-col gap-4">
      <SectionMessages intent="feedToken" actionData={actionData} />
      <SectionMessages intent="feedTokenOff" actionData={actionData} />
      <p>{t("settings.feed.text")}</p>
      {url ? (
        <label className="flex flex-col gap-1">
          <span className="text-sm">{t("settings.feed.address")}</span>
          <input
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="min-h-11 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 font-mono text-sm"
            data-testid="private-feed-url"
          />
        </label>
      ) : active ? (
        <p className="text-sm text-muted">{t("settings.feed.active")}</p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="feedToken" />
          <button type="submit" className={buttonClass("primary")}>
            {active ? t("settings.feed.renew") : t("settings.feed.create")}
          </button>
        </Form>
        {active ? (
          <Form method="post">
            <input type="hidden" name="intent" value="feedTokenOff" />
            <button type="submit" className={buttonClass("outline")}>
              {t("settings.feed.off")}
            </button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}
