import "~/i18n/full-catalogue";
import { Outlet, useLocation } from "react-router";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { useTranslation } from "~/i18n/react";
import { testClockEnabled } from "~/lib/clock.server";
import { ErrorBoundary as SiteErrorBoundary } from "~/root";
import { NavLink } from "~/ui/link";
import type { Route } from "./+types/layout";

/**
 * The author's admin (ADR 34): every page under /admin sits in this frame. The frame's loader checks the
 * role, and so does every page's loader and action (a layout's check does not guard its children's data
 * requests): anyone but an author gets the site's ordinary 404.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  return { username: author.username, testClock: testClockEnabled() };
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}

/**
 * The 404 (or any error) inside the site's frame, as the root shows it, so that its title names the site as
 * an unknown page's does: /admin looks like no page at all to anyone but an author.
 */
export function ErrorBoundary(props: Route.ErrorBoundaryProps) {
  return <SiteErrorBoundary {...(props as Parameters<typeof SiteErrorBoundary>[0])} />;
}

const sections = [
  { to: "/admin", key: "overview", end: true },
  { to: "/admin/chapters", key: "chapters", end: false },
  { to: "/admin/translations", key: "translations", end: false },
  { to: "/admin/uploads", key: "uploads", end: false },
  { to: "/admin/wiki", key: "wiki", end: false },
  { to: "/admin/gallery", key: "gallery", end: false },
  { to: "/admin/coins", key: "coins", end: false },
  { to: "/admin/tiers", key: "tiers", end: false },
  { to: "/admin/goals", key: "goals", end: false },
  { to: "/admin/polls", key: "polls", end: false },
  { to: "/admin/credits", key: "credits", end: false },
  { to: "/admin/products", key: "products", end: false },
  { to: "/admin/site", key: "site", end: false },
  // Current on either legal page, not only the one it opens.
  { to: "/admin/legal/terms", key: "legal", end: false, under: "/admin/legal/" },
  { to: "/admin/readers", key: "readers", end: false },
  { to: "/admin/comments", key: "comments", end: false },
  { to: "/admin/inquiries", key: "inquiries", end: false },
  { to: "/admin/qa", key: "qa", end: false },
  { to: "/admin/announcements", key: "announcements", end: false },
  { to: "/admin/orders", key: "orders", end: false },
  { to: "/admin/payments", key: "payments", end: false },
  { to: "/admin/subscriptions", key: "subscriptions", end: false },
  { to: "/admin/analytics", key: "analytics", end: false },
  { to: "/admin/authors", key: "authors", end: false },
  { to: "/admin/audit", key: "audit", end: false },
  { to: "/admin/clock", key: "clock", end: false, testClock: true },
] as const;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-baseline justify-between gap-3 border-b border-line pb-4">
        <p className="font-display text-xl text-primary">{t("admin.title")}</p>
        <p className="text-sm text-muted">{t("admin.signedInAs", { username: loaderData.username })}</p>
        <nav aria-label={t("admin.sections")} className="flex w-full flex-wrap gap-2">
          {sections
            .filter((section) => !("testClock" in section) || loaderData.testClock)
            .map((section) => (
              <NavLink
                key={section.to}
                to={"under" in section && pathname.startsWith(section.under) ? pathname : section.to}
                end={section.end}
                className="inline-flex min-h-11 items-center rounded-md border border-line px-3 aria-[current=page]:border-primary aria-[current=page]:bg-primary aria-[current=page]:text-on-primary"
              >
                {t(`admin.nav.${section.key}`)}
              </NavLink>
            ))}
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
