import { useEffect, useState } from "react";
import { type Language, languageNames, languages } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { MoonIcon, SunIcon } from "~/ui/icons";

/**
 * The language picker: a plain form (works without JavaScript); with JavaScript a choice submits at once.
 * The page reloads at the new language's URL (ADR 87), since the server renders it. The forms here name no
 * page to come back to: /preferences goes back to the page that sent them (app/routes/preferences.ts). A
 * chapter opens at the reader's paragraph again: their place is kept per chapter, not per language
 * (features/reader/use-reading-progress.ts restores it).
 */
export function LanguagePicker({ language }: { language: Language }) {
  const { t } = useTranslation();
  return (
    <form method="post" action="/preferences" className="lang-form">
      <select
        aria-label={t("nav.language")}
        name="lang"
        defaultValue={language}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="lang-select"
      >
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageNames[code]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="lang-select">
          {t("nav.apply")}
        </button>
      </noscript>
    </form>
  );
}

/**
 * Light/dark toggle. Without a saved choice the page follows the system setting (the head script adds
 * `dark`); a click shows the opposite at once and saves it in a cookie the server renders from (without
 * JavaScript the form posts and the page comes back in the new theme). Nothing on the page needs reloading,
 * so the choice is sent with a plain request and its redirect back to the page is not followed.
 */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [dark, setDark] = useState(false);
  useEffect(() => setDark(document.documentElement.classList.contains("dark")), []);
  const next = dark ? "light" : "dark";
  return (
    <form
      method="post"
      action="/preferences"
      onSubmit={(event) => {
        event.preventDefault();
        document.documentElement.classList.toggle("dark", next === "dark");
        setDark(next === "dark");
        const body = new URLSearchParams({ theme: next });
        void fetch("/preferences", { method: "POST", body, redirect: "manual" }).catch(() => {});
      }}
    >
      <button
        type="submit"
        name="theme"
        value={next}
        className="btn-icon"
        // Its name (no aria-label saying it again) and its tooltip.
        title={dark ? t("nav.lightTheme") : t("nav.darkTheme")}
      >
        {dark ? <SunIcon /> : <MoonIcon />}
      </button>
    </form>
  );
}
