import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { localizedPath } from "~/i18n/urls";

/** The site's sections in the footer, each with its name in the side menu's words. */
const sections = [
  { to: "/chapters", key: "menu.chapters" },
  { to: "/wiki", key: "menu.wiki" },
  { to: "/shop", key: "menu.shop" },
  { to: "/fundraiser", key: "menu.fundraiser" },
] as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/**
 * The footer's links to the site's sections, the account (or sign-in) and the legal pages, as the server
 * writes them: also where the menu button leads without JavaScript (features/layout/side-menu.tsx). Written
 * by the server alone (app/root.tsx keeps them as they are in the browser), so no page's scripts carry them
 * or their texts: the chapter page's JavaScript budget (ADR 30) had no room for them. They are plain links,
 * followed as a page load: the side menu is the way around with JavaScript. They change only with the
 * language (a new page) and with signing in or out (then /login sends a reader on to /account).
 */
export function siteNavHtml(language: Language, signedIn: boolean, urlLanguage?: Language | null): string {
  const t = serverTranslator(language);
  // On a language's URL the links stay in it (ADR 87): a plain link has no router to add the prefix.
  const href = (to: string) => (urlLanguage ? localizedPath(urlLanguage, to) : to);
  return [
    ...sections,
    signedIn ? { to: "/account", key: "menu.account" } : { to: "/login", key: "menu.login" },
    { to: "/terms", key: "footer.terms" },
    { to: "/privacy", key: "footer.privacy" },
  ]
    .map(({ to, key }) => `<a href="${href(to)}">${escapeHtml(t(key))}</a>`)
    .join("");
}
