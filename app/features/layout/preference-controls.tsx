import { useEffect, useState } from "react";
import { Form, useFetcher, useLocation } from "react-router";
import { type Language, languageNames, languages } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";

function useCurrentPath() {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

/**
 * The language picker: a plain form (works without JavaScript); with JavaScript a choice submits at once.
 * The page reloads in the new language, since the server renders it.
 */
export function LanguagePicker({ language }: { language: Language }) {
  const { t } = useTranslation();
  const redirectTo = useCurrentPath();
  return (
    <Form method="post" action="/preferences" reloadDocument className="flex items-center gap-1">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="language-picker" className="sr-only">
        {t("nav.language")}
      </label>
      <select
        id="language-picker"
        name="lang"
        defaultValue={language}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="h-11 rounded-md border border-line bg-transparent px-2 text-sm text-ink"
      >
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageNames[code]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="h-11 rounded-md border border-line px-2 text-sm">
          {t("nav.apply")}
        </button>
      </noscript>
    </Form>
  );
}

/**
 * Light/dark toggle. Without a saved choice the page follows the system setting (the head script adds
 * `dark`); a click saves the opposite of what is shown now, in a cookie the server renders from.
 */
export function ThemeToggle() {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const redirectTo = useCurrentPath();
  const [dark, setDark] = useState(false);
  useEffect(() => setDark(document.documentElement.classList.contains("dark")), []);
  const next = dark ? "light" : "dark";
  return (
    <fetcher.Form
      method="post"
      action="/preferences"
      onSubmit={() => {
        document.documentElement.classList.toggle("dark", next === "dark");
        setDark(next === "dark");
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className="btn-icon"
        aria-label={dark ? t("nav.lightTheme") : t("nav.darkTheme")}
        title={dark ? t("nav.lightTheme") : t("nav.darkTheme")}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="icon h-5 w-5">
          {dark ? (
            <>
              <circle cx="12" cy="12" r="4" />
              <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
            </>
          ) : (
            <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
          )}
        </svg>
      </button>
    </fetcher.Form>
  );
}
